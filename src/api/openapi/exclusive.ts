import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { exclusiveText } from '@/engine/spec/describe/exclusive';
import type { EntityModel, ExclusiveModel } from '@/engine/spec/model';
import type { ResponseObject } from './types';

/** The codes a write of the entity may be refused with for an overlap (VALIDATION_FAILED or the rules' own). */
export function exclusiveCodes(entity: EntityModel): string[] {
  return entity.exclusive.map((rule) => rule.code);
}

/**
 * The responses of a write, with the entity's `exclusive` rules said in words on the response of
 * each rule's code: a write whose range would overlap another record's is refused with the
 * rule's message on its start field (races included: the exclusion constraint refuses the loser).
 */
export function withExclusiveNote(entity: EntityModel, responses: Record<string, ResponseObject>): Record<string, ResponseObject> {
  const notes = new Map<string, string[]>();
  for (const rule of entity.exclusive) {
    const status = String(statusOf(rule));
    notes.set(status, [
      ...(notes.get(status) ?? []),
      `${rule.code} also when the write would make ranges overlap: ${exclusiveText(entity, rule)} (on \`${rule.start}\`: "${rule.message}").`,
    ]);
  }
  const noted = { ...responses };
  for (const [status, lines] of notes) {
    const response = noted[status];
    if (response) noted[status] = { ...response, description: `${response.description}. ${lines.join(' ')}` };
  }
  return noted;
}

function statusOf(rule: ExclusiveModel): number {
  if (rule.own) return rule.own.status;
  const builtIn = (BUILT_IN_ERRORS as Record<string, { status: number }>)[rule.code];
  return builtIn?.status ?? 422;
}
