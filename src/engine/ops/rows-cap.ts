import { createsAnyRecord } from '../access/grants';
import { NinefoldError } from '../errors/ninefold-error';
import { LIMIT_CONSTANTS, resolveLimits } from '../limits';
import type { AppModel, EntityModel } from '../spec/model';
import type { Actor } from '../ground/actor';
import { inSentence } from '../spec/naming';

/** The most rows one import of an entity may hold for an actor, and the constant that sets it. */
export interface RowsCap {
  readonly max: number;
  readonly constant: string;
}

/**
 * Staff (a role that may create any record of the entity) get `importMaxRows`; everyone else,
 * whose create grant has a condition, `importMaxRowsScoped`, never more than staff.
 */
export function rowsCapFor(model: AppModel, entity: EntityModel, actor: Actor): RowsCap {
  const limits = resolveLimits(model);
  if (createsAnyRecord(entity, actor)) return { max: limits.importMaxRows, constant: LIMIT_CONSTANTS.importMaxRows.constant };
  return { max: Math.min(limits.importMaxRowsScoped, limits.importMaxRows), constant: LIMIT_CONSTANTS.importMaxRowsScoped.constant };
}

/** The refusal of an import with more rows than its cap: nothing of it is checked or written. */
export function tooManyRows(entity: EntityModel, cap: RowsCap): NinefoldError {
  const max = cap.max.toLocaleString('en-US');
  return new NinefoldError(
    'PAYLOAD_TOO_LARGE',
    `The file has more than ${max} rows; at most ${max} ${inSentence(entity.pluralLabel)} can be imported at once. Split it into smaller files.`,
    {
      details: { constant: cap.constant, max: cap.max },
    },
  );
}
