import { createHash } from 'node:crypto';
import type { ExclusiveModel, FieldModel } from './model';
import type { AppSpec, EntitySpec, ExclusiveSpec } from './types';
import { indefinite, inSentence } from './naming';
import { resolveConstants } from './unique-when';

/** Postgres truncates identifiers to 63 bytes: the table part is shortened so the hash survives. */
const MAX_IDENTIFIER_LENGTH = 63;
const HASH_LENGTH = 10;

/** The entity's `exclusive`, one or a list, as a list. */
function declaredExclusive(entity: Pick<EntitySpec, 'exclusive'>): readonly ExclusiveSpec[] {
  const declared = entity.exclusive;
  if (declared === undefined) return [];
  return Array.isArray(declared) ? (declared as readonly ExclusiveSpec[]) : [declared as ExclusiveSpec];
}

/** `per` as a list (one field or several). */
function exclusivePer(rule: Pick<ExclusiveSpec, 'per'>): readonly string[] {
  if (rule.per === undefined) return [];
  return typeof rule.per === 'string' ? [rule.per] : rule.per;
}

/** `<table>_ex_`: how the exclusion constraints of `exclusive` are named, so that schema sync knows its own. */
export function exclusiveConstraintPrefix(table: string): string {
  return `${table.slice(0, MAX_IDENTIFIER_LENGTH - HASH_LENGTH - 4)}_ex_`;
}

/**
 * `exclusive` with its defaults. The constraint's name carries a hash of the range, the key and
 * the condition with its constants' values, so that a changed rule is a new constraint: schema
 * sync adds it and drops the old one, which holds no data.
 */
export function buildExclusive(
  table: string,
  entityLabel: string,
  entity: EntitySpec,
  fields: readonly FieldModel[],
  spec: Pick<AppSpec, 'constants' | 'errors'>,
): readonly ExclusiveModel[] {
  const labelOf = (name: string) => fields.find((f) => f.name === name)?.label ?? name;
  return declaredExclusive(entity).map((rule) => {
    const [start, end] = rule.range;
    const per = exclusivePer(rule);
    const own = rule.error ? spec.errors?.[rule.error] : undefined;
    const rangeType = fields.find((f) => f.name === start)?.type === 'date' ? 'daterange' : 'tstzrange';
    const hash = createHash('sha256')
      .update(JSON.stringify([start, end, rangeType, per, rule.where ? resolveConstants(rule.where, spec.constants) : null]))
      .digest('hex')
      .slice(0, HASH_LENGTH);
    return {
      start,
      end,
      rangeType,
      per,
      where: rule.where ?? null,
      // The spec's words, else its own error's, else words naming the key.
      message: rule.message ?? own?.message ?? defaultMessage(entityLabel, per.map(labelOf)),
      code: rule.error ?? 'VALIDATION_FAILED',
      ...(own ? { own: { status: own.status, title: own.title } } : {}),
      constraint: `${exclusiveConstraintPrefix(table)}${hash}`,
    };
  });
}

/** "This technician already has a visit at that time."; without a key, "Another visit already takes that time." */
function defaultMessage(entityLabel: string, perLabels: readonly string[]): string {
  const [only] = perLabels;
  if (only !== undefined && perLabels.length === 1) return `This ${inSentence(only)} already has ${indefinite(entityLabel)} at that time.`;
  const sharing = perLabels.length > 1 ? ` with the same ${perLabels.map(inSentence).join(' and ')}` : '';
  return `Another ${inSentence(entityLabel)}${sharing} already takes that time.`;
}
