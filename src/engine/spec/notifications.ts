import { buildAuto, type AutoModel } from './auto';
import { compileCondition } from '../condition/compile';
import type { CompiledCondition } from '../condition/types';
import type { AppSpec, NotificationChannel, NotificationSpec, NotificationTrigger } from './types';
import type { WorkingCalendar } from '../time/working-days';

/*
 * The spec's notifications compiled once (buildModel): what change or time of which entity's
 * records tells whom what. The write path asks `entity.notifications` (empty: nothing to do, no
 * query); the dispatcher (src/engine/notify) resolves recipients and renders per recipient.
 */

export const NOTIFICATION_CHANNELS: readonly NotificationChannel[] = ['inApp', 'email'];

/** The change a notification is told of, or the time it falls due at. */
export type NotificationOn =
  | { readonly kind: 'create' }
  | { readonly kind: 'update'; readonly fields: readonly string[] }
  | { readonly kind: 'transition'; readonly transitions: readonly string[] }
  /** A time before or after a date/datetime field, once per record and value of the field (AutoModel's shape). */
  | { readonly kind: 'time'; readonly time: AutoModel };

/** Who is told: the users a field path holds, the users of a role, or the record's watchers. */
export type RecipientModel =
  | { readonly kind: 'field'; readonly path: string; readonly head: string; readonly tail: string | null }
  | { readonly kind: 'role'; readonly role: string }
  /** The record's watchers, or (`via`: 'ticket.watchers') those of the record a reference points at. */
  | { readonly kind: 'watchers'; readonly via: string | null };

export interface NotificationModel {
  /** The kind's name (its key in the spec): preferences and deliveries are kept under it. */
  readonly name: string;
  readonly label: string;
  readonly entity: string;
  readonly on: NotificationOn;
  /**
   * On the record after the change (or at the time), compiled at build (condition/compile.ts, the
   * one compiled form): evaluated in memory in the write's transaction, in SQL by the reminders' claim.
   */
  readonly when: CompiledCondition | null;
  readonly to: readonly RecipientModel[];
  readonly title: string;
  readonly text: string;
  readonly channels: readonly NotificationChannel[];
}

/** `{field}` and `{path.field}` in a notification's title or text. */
export const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)?)\}/g;

/** The names a text's placeholders use, in order. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

function buildOn(on: NotificationTrigger, spec: AppSpec, calendar: WorkingCalendar): NotificationOn {
  if ('create' in on) return { kind: 'create' };
  if ('update' in on) return { kind: 'update', fields: on.update };
  if ('transition' in on) return { kind: 'transition', transitions: typeof on.transition === 'string' ? [on.transition] : on.transition };
  return { kind: 'time', time: buildAuto(on, spec.constants ?? {}, calendar) };
}

function buildRecipient(to: NotificationSpec['to'][number]): RecipientModel {
  if (typeof to !== 'string') return { kind: 'role', role: to.role };
  const [head, tail] = to.split('.');
  if (to === 'watchers') return { kind: 'watchers', via: null };
  if (tail === 'watchers') return { kind: 'watchers', via: head! };
  return { kind: 'field', path: to, head: head!, tail: tail ?? null };
}

export function buildNotifications(spec: AppSpec, calendar: WorkingCalendar): NotificationModel[] {
  return Object.entries(spec.notifications ?? {}).map(([name, n]) => ({
    name,
    label: n.label ?? name,
    entity: n.entity,
    on: buildOn(n.on, spec, calendar),
    when: n.when ? compileCondition(n.when, spec.constants ?? {}, calendar) : null,
    to: n.to.map(buildRecipient),
    title: n.title,
    text: n.text ?? '',
    channels: n.channels ?? NOTIFICATION_CHANNELS,
  }));
}
