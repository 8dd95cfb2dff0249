import type { Engine } from '@/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import type { Actor } from '@/engine/ground/actor';
import type { ChoiceOption } from '@/ui/forms/state';

/** Options a picker shows for what was typed: enough to choose from, never the whole table. */
export const PICKER_RESULTS = 20;

/** What a picker sends: the text typed, and the form's value of the field's `within` (a deal's company). */
export interface PickerQuery {
  readonly q: string;
  readonly within: number | null;
}

/**
 * The options of a reference or user field of a form or filter matching what the actor typed,
 * by title, at most PICKER_RESULTS: through ops.choices, so the actor's scope on the records
 * referred to, the field's `roles` and its `within` hold. A field the actor may not choose (or
 * that is none) has no options: the picker says "No match", as it would for a word not found.
 */
export async function searchFieldChoices(
  engine: Engine,
  actor: Actor,
  entity: string,
  field: string,
  query: PickerQuery,
): Promise<ChoiceOption[]> {
  try {
    const { choices } = await engine.ops.choices(actor, entity, field, { q: query.q, limit: PICKER_RESULTS, within: query.within });
    return choices.map((choice) => ({ value: String(choice.id), label: choice.title }));
  } catch (error) {
    if (asNinefoldError(error)) return [];
    throw error;
  }
}
