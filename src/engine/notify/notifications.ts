import type { Actor } from '../ground/actor';
import type { AppModel } from '../spec/model';
import type { DynamicDatabase, Store } from '../store/types';
import { INBOX_CHANNEL, parseInboxUsers } from './inbox-channel';
import { listInbox, markAllRead, markRead, unreadCount, type InboxPage } from './inbox';
import { myPreferences, setMyPreference, type KindPreference } from './preferences';
import { unsubscribe, unsubscribeTarget, type UnsubscribeTarget } from './unsubscribe';
import { setWatch, watchState, type WatchMode, type WatchState } from './watch';

/** What the doors may do with notifications: each user's own inbox and choices, nothing else. */
export interface Notifications {
  inbox(actor: Actor, query?: { cursor?: string; limit?: number; unread?: boolean }): Promise<InboxPage>;
  unread(actor: Actor): Promise<number>;
  markRead(actor: Actor, id: number): Promise<void>;
  markAllRead(actor: Actor): Promise<number>;
  preferences(actor: Actor): ReturnType<typeof myPreferences>;
  setPreference(actor: Actor, kind: string, preference: KindPreference): Promise<void>;
  /** The actor's watch or mute of a record they may read (NOT_FOUND otherwise), and what they may do. */
  watching(actor: Actor, entity: string, id: number): Promise<WatchState>;
  /** Watches, mutes, or (null) neither, a record the actor may read. */
  setWatching(actor: Actor, entity: string, id: number, mode: WatchMode | null): Promise<void>;
  /** Whose e-mail an unsubscribe link turns off, and for what; NOT_FOUND for a link this application did not sign. */
  unsubscribeTarget(token: string): Promise<UnsubscribeTarget>;
  /** Turns off the e-mail an unsubscribe link names (no session: the signed link is the authority). */
  unsubscribe(token: string): Promise<UnsubscribeTarget>;
  /**
   * Calls `onUsers` with the ids of users who have new in-app notifications, as each dispatch
   * commits in any process (NOTIFY); the function it resolves to stops listening.
   */
  listen(onUsers: (userIds: readonly number[]) => void): Promise<() => Promise<void>>;
}

export function createNotifications(model: AppModel, db: DynamicDatabase, store: Pick<Store, 'listen'>): Notifications {
  return {
    inbox: (actor, query) => listInbox(model, db, actor, query),
    unread: (actor) => unreadCount(db, actor),
    markRead: (actor, id) => markRead(db, actor, id),
    markAllRead: (actor) => markAllRead(db, actor),
    preferences: (actor) => myPreferences(model, db, actor),
    setPreference: (actor, kind, preference) => setMyPreference(model, db, actor, kind, preference),
    watching: (actor, entity, id) => watchState({ model, db }, actor, entity, id),
    setWatching: (actor, entity, id, mode) => setWatch({ model, db }, actor, entity, id, mode),
    unsubscribeTarget: (token) => unsubscribeTarget(model, db, token),
    unsubscribe: (token) => unsubscribe(model, db, token),
    listen: (onUsers) =>
      store.listen(INBOX_CHANNEL, {
        onNotify: (payload) => onUsers(parseInboxUsers(payload)),
        // Missed announcements only delay a bell until the next page load.
        onResync: () => undefined,
      }),
  };
}
