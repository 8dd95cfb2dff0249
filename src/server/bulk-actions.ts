import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import { BULK_CHOICE_INPUT, parseBulkChoice, type BulkActionState } from '@/ui/record/bulk-action-state';
import { entityNamed } from './entity-named';
import { postedText } from './bulk-rows';
import { submitBulkDelete } from './bulk-delete-actions';
import { submitBulkSet } from './bulk-field-actions';
import { submitBulkTransition } from './bulk-transition-actions';

/*
 * The bulk panel of a list posts one form: the rows, and one chosen action among the workflow's
 * transitions, "Set <field>" and "Delete". This hands it to the plain function of that action;
 * each reads what it needs and answers the panel's state. An unknown entity throws NOT_FOUND.
 */
export async function submitBulkAction(
  engine: Engine,
  actor: Actor,
  entityName: string,
  state: BulkActionState,
  formData: FormData,
  /** The viewer's zone (src/server/viewer-zone.ts): posted date-times are wall times in it. */
  zone: string,
): Promise<BulkActionState> {
  const choice = parseBulkChoice(postedText(formData, BULK_CHOICE_INPUT));
  switch (choice?.kind) {
    case 'set':
      return submitBulkSet(engine, actor, entityName, choice.field, state, formData, zone);
    case 'delete':
      return submitBulkDelete(engine, actor, entityName, state, formData);
    case 'transition':
      return submitBulkTransition(engine, actor, entityName, state, formData, zone);
    default:
      entityNamed(engine, entityName);
      return { message: 'Choose what to do with the selected rows.', values: {}, outcome: null, attempt: state.attempt + 1 };
  }
}
