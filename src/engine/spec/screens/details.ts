import type { DetailModel, RelatedModel } from './detail-model';
import type { EntityModel } from '../model';
import { beforeFirst } from '../naming';
import { declaredValue } from '../own-names';
import type { AppSpec, RelatedSpec } from '../types';

/** Rows per page of a related table, and items per page of a thread, unless the spec says. */
const TABLE_PAGE_SIZE = 10;
const THREAD_PAGE_SIZE = 50;

/** The entities as built before their detail pages (which need the others' lists and labels). */
export type EntityWithoutDetails = Omit<EntityModel, 'details' | 'notifications' | 'webhookEvents'>;

/** Reverse references: every reference field of any entity that points at `entityName`, in spec order. */
export function reverseReferences(
  entities: readonly EntityWithoutDetails[],
  entityName: string,
): { entity: EntityWithoutDetails; via: string }[] {
  return entities.flatMap((entity) =>
    entity.fields.filter((f) => f.type === 'reference' && f.referenceTo === entityName).map((f) => ({ entity, via: f.name })),
  );
}

/**
 * The sections of `entity`'s detail page: those `screens.details.<entity>.related` declares, in
 * its order, or by default one table per reverse reference. (The spec is valid here: names
 * resolve, `via` is given where needed.)
 */
export function buildDetails(spec: AppSpec, entity: EntityWithoutDetails, entities: readonly EntityWithoutDetails[]): DetailModel {
  const reverse = reverseReferences(entities, entity.name);
  const byName = new Map(entities.map((e) => [e.name, e]));
  const declared = spec.screens?.details?.[entity.name]?.related;
  const picked = declared
    ? Object.entries(declared).map(([key, section]) => {
        const name = beforeFirst(key, '.');
        const [, keyVia] = key.split('.');
        const related = byName.get(name);
        if (!related) throw new Error(`The related section "${key}" names no entity, though the spec validator checks that it does.`);
        const via = section.via ?? keyVia ?? reverse.find((r) => r.entity.name === name)!.via;
        return { key, related, via, section };
      })
    : reverse.map(({ entity: related, via }) => ({
        key: reverse.filter((r) => r.entity.name === related.name).length > 1 ? `${related.name}.${via}` : related.name,
        related,
        via,
        section: {} as RelatedSpec,
      }));
  const related = picked.map(({ key, related: other, via, section }) => {
    const shared = picked.filter((p) => p.related.name === other.name).length > 1;
    return relatedModel(key, other, via, section, shared);
  });
  return { related, replyTransitions: [...new Set(related.flatMap((r) => Object.values(r.transitions).map((names) => names[0]!)))] };
}

function relatedModel(key: string, related: EntityWithoutDetails, via: string, section: RelatedSpec, shared: boolean): RelatedModel {
  const thread = section.thread === true;
  const listSort = `${related.list.sort.direction === 'desc' ? '-' : ''}${related.list.sort.field}`;
  return {
    key,
    entity: related.name,
    via,
    param: shared ? `${related.plural}.${via}` : related.plural,
    label:
      section.label ??
      (shared ? `${related.pluralLabel} (${declaredValue(related.fieldsByName, via, 'field').label})` : related.pluralLabel),
    display: thread ? 'thread' : 'table',
    body: thread
      ? ((related.fields.find((f) => f.type === 'markdown') ?? related.fields.find((f) => f.type === 'text'))?.name ?? null)
      : null,
    columns: section.columns ?? related.list.columns.filter((c) => c !== via),
    sort: section.sort ?? (thread ? 'createdAt' : listSort),
    pageSize: section.pageSize ?? (thread ? THREAD_PAGE_SIZE : TABLE_PAGE_SIZE),
    add: section.add ?? true,
    addWhenFinal: section.addWhenFinal ?? false,
    badges: section.badges ?? [],
    transitions: Object.fromEntries(
      Object.entries(section.transitions ?? {}).map(([who, names]) => [who, typeof names === 'string' ? [names] : [...names]]),
    ),
    replyWith: section.replyWith ?? [],
  };
}

/**
 * The sections, on any entity's page, that show records of `entityName` through `via`: what
 * creating such a record must respect (final parents, the transitions a reply takes).
 */
export function sectionsShowing(
  entities: readonly EntityModel[],
  entityName: string,
  via: string,
): { parent: EntityModel; section: RelatedModel }[] {
  return entities.flatMap((parent) =>
    parent.details.related.filter((s) => s.entity === entityName && s.via === via).map((section) => ({ parent, section })),
  );
}
