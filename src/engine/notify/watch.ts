import { NinefoldError } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import type { OpsContext } from '../ops/context';
import { getRecord } from '../ops/read';
import type { AppModel } from '../spec/model';
import { WATCH_TABLE } from '../store/schema/notify-tables';

/*
 * Watching and muting a record, each user for themselves. A user may watch a record they may
 * read where the spec's `watch` lets one of their roles (then `watchers` tell them); any user may
 * mute a record they may read that notifications concern (then nothing about it, nor about the
 * records whose notifications go through it, such as a ticket's replies, reaches them). Both ask
 * ops whether the user may read the record: an id they cannot see is NOT_FOUND, as everywhere.
 */

export type WatchMode = 'watch' | 'mute';

export interface WatchState {
  /** Whether the user may watch this record (the spec's `watch` and their roles). */
  readonly canWatch: boolean;
  /** Whether notifications concern records of this entity at all (else there is nothing to mute). */
  readonly canMute: boolean;
  readonly mode: WatchMode | null;
}

/** The entities whose records notifications are about, or go through (`ticket.requester`, `ticket.watchers`). */
export function concernedEntities(model: AppModel): Set<string> {
  const names = new Set<string>();
  for (const notification of model.notifications) {
    names.add(notification.entity);
    const entity = model.entitiesByName[notification.entity]!;
    for (const to of notification.to) {
      const head = to.kind === 'field' && to.tail !== null ? to.head : to.kind === 'watchers' ? to.via : null;
      const target = head ? entity.fieldsByName[head]?.referenceTo : undefined;
      if (target) names.add(target);
    }
  }
  return names;
}

const mayWatch = (model: AppModel, actor: Actor, entity: string) => (model.watch[entity] ?? []).some((role) => actor.roles.includes(role));

/** The actor's watch on a record they may read; NOT_FOUND otherwise. */
export async function watchState(ctx: OpsContext, actor: Actor, entity: string, recordId: number): Promise<WatchState> {
  await getRecord(ctx, actor, entity, recordId);
  const row =
    actor.visitor || actor.system
      ? undefined
      : await ctx.db
          .selectFrom(WATCH_TABLE)
          .select('mode')
          .where('user_id', '=', actor.userId)
          .where('entity', '=', entity)
          .where('record_id', '=', recordId)
          .executeTakeFirst();
  return {
    canWatch: mayWatch(ctx.model, actor, entity),
    canMute: concernedEntities(ctx.model).has(entity),
    mode: row ? (row.mode as WatchMode) : null,
  };
}

/**
 * Sets the actor's own watch on a record (null: neither watched nor muted). FORBIDDEN to watch
 * where their roles may not, or to mute what no notification concerns.
 */
export async function setWatch(ctx: OpsContext, actor: Actor, entity: string, recordId: number, mode: WatchMode | null): Promise<void> {
  if (actor.visitor || actor.system) throw new NinefoldError('UNAUTHENTICATED', 'Sign in to watch or mute a record.');
  const state = await watchState(ctx, actor, entity, recordId);
  if (mode === 'watch' && !state.canWatch) throw new NinefoldError('FORBIDDEN', 'Your roles may not watch this record.');
  if (mode === 'mute' && !state.canMute)
    throw new NinefoldError('FORBIDDEN', 'No notification concerns this record: there is nothing to mute.');
  const mine = ctx.db
    .deleteFrom(WATCH_TABLE)
    .where('user_id', '=', actor.userId)
    .where('entity', '=', entity)
    .where('record_id', '=', recordId);
  if (mode === null) {
    await mine.execute();
    return;
  }
  await ctx.db
    .insertInto(WATCH_TABLE)
    .values({ user_id: actor.userId, entity, record_id: recordId, mode })
    .onConflict((oc) => oc.columns(['user_id', 'entity', 'record_id']).doUpdateSet({ mode }))
    .execute();
}
