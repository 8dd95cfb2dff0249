import type { AppSpec, ConstantRef, FieldSpec } from './types';

/**
 * Declares an application. Identity at run time: the spec is checked when the engine loads
 * it (see `loadSpec`), so that a mistake stops the start with the place it was made.
 * `const` keeps literal types, so records can be typed from the spec (`RecordOf`).
 */
export function defineApp<const S extends AppSpec>(spec: S): S {
  return spec;
}

/** Refers to a business constant declared under `constants`. */
export function constant(name: string): ConstantRef {
  return { $constant: name };
}

type Nullable<T, F> = F extends { readonly required: true } ? T : T | null;

type FieldValue<F extends FieldSpec> = F extends { readonly type: 'integer' | 'reference' | 'user' }
  ? number
  : F extends { readonly type: 'boolean' }
    ? boolean
    : F extends { readonly type: 'enum'; readonly values: readonly (infer V)[] }
      ? V
      : F extends { readonly type: 'datetime' }
        ? Date
        : string;

type FieldsOf<S extends AppSpec, E extends string> =
  S['entities'] extends Readonly<Record<string, infer _>> ? NonNullable<S['entities']>[E]['fields'] : never;

type StateOf<S extends AppSpec, E extends string> =
  NonNullable<S['workflows']> extends Readonly<Record<E, { readonly states: infer St }>> ? { state: keyof St & string } : unknown;

/** The record type of entity `E` in spec `S`, with the system columns every record has. */
export type RecordOf<S extends AppSpec, E extends keyof NonNullable<S['entities']> & string> = {
  -readonly [K in keyof FieldsOf<S, E>]: FieldsOf<S, E>[K] extends FieldSpec
    ? Nullable<FieldValue<FieldsOf<S, E>[K]>, FieldsOf<S, E>[K]>
    : never;
} & {
  id: number;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  /** Absent where the spec's field rules hide who wrote it (from `public`, by default). */
  createdBy?: number | null;
  updatedBy?: number | null;
} & StateOf<S, E>;
