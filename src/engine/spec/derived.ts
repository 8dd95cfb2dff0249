import type { AppSpec, Condition, DerivedSpec } from './types';
import { entityLabels } from './naming';
import { declaredValue } from './own-names';

/** How a derived field folds the related records: how many, whether any, or a sum, least or greatest of one of their fields. */
export const DERIVED_KINDS = ['count', 'exists', 'sum', 'min', 'max'] as const;
export type DerivedKind = (typeof DERIVED_KINDS)[number];

/**
 * A derived field (`derived` on a field) as the engine reads it: the related entity and the
 * reference field through which its records point at this one resolved once at boot, so that
 * schema sync (the triggers that keep the column), /spec and pages all read the same facts.
 */
export interface DerivedModel {
  readonly kind: DerivedKind;
  /** The related entity, whose records reference this one. */
  readonly entity: string;
  /** Its reference field to this entity. */
  readonly via: string;
  /** For sum, min and max: the related entity's field folded; null for count and exists. */
  readonly field: string | null;
  /** Which related records count; null: all of them. */
  readonly where: Condition | null;
  /** The related entity's labels, for texts that explain the value ("the number of comments of the ticket"). */
  readonly relatedLabel: string;
  readonly relatedPluralLabel: string;
}

/** The kind a derived spec declares and what it names (`'comment'` or `'deal.amount'`); null when it declares none. */
export function derivedTarget(derived: DerivedSpec): { readonly kind: DerivedKind; readonly target: string } | null {
  const named = derived as Readonly<Record<string, unknown>>;
  const kind = DERIVED_KINDS.find((k) => named[k] !== undefined);
  const target = kind === undefined ? undefined : named[kind];
  return kind !== undefined && typeof target === 'string' ? { kind, target } : null;
}

/** The reference fields of `related` that point at `parent`, in spec order: what `via` chooses among. */
export function reverseReferences(spec: Pick<AppSpec, 'entities'>, parent: string, related: string): string[] {
  const fields = spec.entities?.[related]?.fields ?? {};
  return Object.entries(fields)
    .filter(([, field]) => field.type === 'reference' && field.to === parent)
    .map(([name]) => name);
}

/** The reference field through which `related` points at `parent`: `via`, or its only one (checked at load). */
export function reverseReference(spec: Pick<AppSpec, 'entities'>, parent: string, related: string, via: string | undefined): string {
  if (via !== undefined) return via;
  const found = reverseReferences(spec, parent, related);
  if (found.length !== 1 || found[0] === undefined)
    throw new Error(`${related} has ${found.length} references to ${parent}, though the spec checks require exactly one`);
  return found[0];
}

export function buildDerived(spec: AppSpec, parent: string, derived: DerivedSpec): DerivedModel {
  const named = derivedTarget(derived);
  if (!named) throw new Error(`a derived field of ${parent} names no related entity, though the spec checks require one`);
  const dot = named.target.indexOf('.');
  const entity = dot < 0 ? named.target : named.target.slice(0, dot);
  const labels = entityLabels(entity, declaredValue(spec.entities ?? {}, entity, 'entity'));
  return {
    relatedLabel: labels.label,
    relatedPluralLabel: labels.pluralLabel,
    kind: named.kind,
    entity,
    via: reverseReference(spec, parent, entity, derived.via),
    field: dot < 0 ? null : named.target.slice(dot + 1),
    where: derived.where ?? null,
  };
}
