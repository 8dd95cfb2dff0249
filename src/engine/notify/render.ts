import { asNinefoldError } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import type { OpsContext } from '../ops/context';
import { getRecord } from '../ops/read';
import { recordTitle } from '../ops/record-title';
import type { RecordData, ReferenceTitles } from '../ops/types';
import type { EntityModel } from '../spec/model';
import { PLACEHOLDER, type NotificationModel } from '../spec/notifications';
import { ownValue } from '../spec/own-names';

/*
 * A notification's title and text for one recipient, from the record as ops give it to that
 * recipient: a field they may not read is not in it, so its placeholder reads HIDDEN, whatever
 * the value. Paths (`{ticket.subject}`) read the referenced record the same way.
 */

/** What a placeholder reads when the recipient may not read its field (or the record it is on). */
export const HIDDEN = '(hidden)';
const EMPTY = '—';

export interface Rendered {
  readonly title: string;
  readonly text: string;
  /** The record's title as the recipient may read it. */
  readonly recordTitle: string;
}

interface Seen {
  readonly entity: EntityModel;
  readonly record: RecordData;
  readonly references: ReferenceTitles;
}

function valueText(seen: Seen, name: string): string {
  const { entity, record, references } = seen;
  if (name === 'title') return recordTitle(entity, record, references);
  if (!(name in record)) return HIDDEN;
  const value = record[name];
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return EMPTY;
  const field = entity.fieldsByName[name];
  const titles = references[name];
  if (titles && (field?.type === 'reference' || field?.type === 'user')) return titles[value as number] ?? HIDDEN;
  if (titles && Array.isArray(value)) return value.map((id) => titles[id as number] ?? HIDDEN).join(', ');
  // An enum by its label, as the pages show it.
  if (field?.spec.type === 'enum') return ownValue(field.spec.labels, String(value)) ?? String(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value instanceof Date) return `${value.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return String(value);
}

/** The record `ref` points at, as `actor` may read it; null when they may not. */
async function readAs(ctx: OpsContext, actor: Actor, entity: EntityModel, id: unknown): Promise<Seen | null> {
  if (typeof id !== 'number') return null;
  try {
    const view = await getRecord(ctx, actor, entity.name, id);
    return { entity, record: view.record, references: view.references };
  } catch (error) {
    if (asNinefoldError(error)) return null;
    throw error;
  }
}

async function fill(ctx: OpsContext, actor: Actor, seen: Seen, template: string): Promise<string> {
  const followed = new Map<string, Seen | null>();
  const values = new Map<string, string>();
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    const [head, tail] = name!.split('.');
    if (tail === undefined) {
      values.set(name!, valueText(seen, head!));
      continue;
    }
    if (!followed.has(head!)) {
      const target = seen.entity.fieldsByName[head!]?.referenceTo;
      // An unreadable reference field hides what it points at too.
      const readable = head! in seen.record;
      followed.set(head!, target && readable ? await readAs(ctx, actor, ctx.model.entitiesByName[target]!, seen.record[head!]) : null);
    }
    const target = followed.get(head!);
    values.set(name!, target ? valueText(target, tail) : HIDDEN);
  }
  return template.replace(PLACEHOLDER, (_, name: string) => values.get(name) ?? HIDDEN);
}

/**
 * The notification as `actor` reads it, or null when they may not read the record at all (then
 * they are not told). ctx.db is the dispatcher's transaction.
 */
export async function renderFor(
  ctx: OpsContext,
  actor: Actor,
  notification: NotificationModel,
  recordId: number,
): Promise<Rendered | null> {
  const entity = ctx.model.entitiesByName[notification.entity]!;
  const seen = await readAs(ctx, actor, entity, recordId);
  if (!seen) return null;
  return {
    title: await fill(ctx, actor, seen, notification.title),
    text: await fill(ctx, actor, seen, notification.text),
    recordTitle: recordTitle(entity, seen.record, seen.references),
  };
}
