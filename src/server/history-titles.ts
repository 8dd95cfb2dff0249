import type { Ops } from '@/engine/ops/ops';
import type { Actor, HistoryEntry, ReferenceTitles } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import { unknownReferenceIds } from '@/ui/record/history-text';
import { asNinefoldError } from './errors';

/** As many choices as one look-up takes; beyond that a name in the history stays "#id". */
const LOOKUP_LIMIT = 200;

/** "Ada Lovelace <ada@example.com>" (a user choice) → "Ada Lovelace", as users are named elsewhere on the page. */
function userName(title: string): string {
  return /^(.+?) <[^<>]*>$/.exec(title)?.[1] ?? title;
}

/**
 * Titles for the references and users named in a history page: those the record view already
 * has, the people who made the entries, then, only for ids still unknown, one ops.choices call
 * per referenced entity (users count as one) — never a query per entry. What ops will not list
 * for this actor stays unknown, and the timeline shows its id.
 */
export async function historyTitles(ops: Ops, actor: Actor, entity: EntityModel, entries: readonly HistoryEntry[], references: ReferenceTitles): Promise<ReferenceTitles> {
  const titles: Record<string, Record<number, string>> = {};
  const people: Record<number, string> = {};
  for (const entry of entries) if (entry.actor) people[entry.actor.id] = entry.actor.name;
  for (const field of entity.fields) {
    if (field.type === 'user') titles[field.name] = { ...people, ...references[field.name] };
    else if (field.type === 'reference' || field.type === 'references') titles[field.name] = { ...references[field.name] };
  }

  const unknown = unknownReferenceIds(entity, entries, titles);
  const byTarget = new Map<string, string[]>();
  for (const name of Object.keys(unknown)) {
    const field = entity.fieldsByName[name];
    const target = field.type === 'user' ? '' : (field.referenceTo ?? name);
    byTarget.set(target, [...(byTarget.get(target) ?? []), name]);
  }
  await Promise.all(
    [...byTarget.entries()].map(async ([target, fields]) => {
      let found: Record<number, string>;
      try {
        const { choices } = await ops.choices(actor, entity.name, fields[0], { limit: LOOKUP_LIMIT });
        found = Object.fromEntries(choices.map((c) => [c.id, target === '' ? userName(c.title) : c.title]));
      } catch (error) {
        if (asNinefoldError(error)) return;
        throw error;
      }
      for (const name of fields) {
        for (const id of unknown[name]) if (found[id] !== undefined) titles[name][id] = found[id];
      }
    }),
  );
  return titles;
}
