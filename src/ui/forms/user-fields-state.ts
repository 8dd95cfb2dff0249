/**
 * One of the spec's user fields (`users.fields`) as the administrators' form shows it: plain
 * data, built on the server (choices read through ops as the administrator) and rendered by a
 * client component.
 */
export interface UserFieldInput {
  /** The field's name; the input is named USER_FIELD_PREFIX + name. */
  readonly name: string;
  readonly label: string;
  readonly help?: string;
  readonly required: boolean;
  /**
   * `select`: one of `choices` ("" for none, unless required); `text` and `integer`: typed.
   * A reference with too many records to list is typed as its id (`integer`).
   */
  readonly kind: 'select' | 'text' | 'integer';
  readonly choices?: readonly { readonly value: string; readonly label: string }[];
  readonly min?: number;
  readonly max?: number;
  readonly maxLength?: number;
}

/** Inputs of user fields are prefixed so that no field name meets the form's own (userId). */
export const USER_FIELD_PREFIX = 'uf_';
