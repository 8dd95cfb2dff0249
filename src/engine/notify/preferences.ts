import { NinefoldError } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import type { AppModel } from '../spec/model';
import { NOTIFY_PREFERENCE_TABLE } from '../store/schema/notify-tables';
import type { DynamicDatabase } from '../store/types';

/*
 * Each user's choice per kind of notification: in the app on or off; e-mail for each, in a daily
 * digest, or off. No row: the defaults (in the app, an e-mail for each). Read by the dispatcher,
 * written by the user on /account (and by the one-click unsubscribe link).
 */

export const EMAIL_CHOICES = ['each', 'digest', 'off'] as const;
export type EmailChoice = (typeof EMAIL_CHOICES)[number];

export interface KindPreference {
  readonly inApp: boolean;
  readonly email: EmailChoice;
}

export const DEFAULT_KIND_PREFERENCE: KindPreference = { inApp: true, email: 'each' };

/** The choices of `userIds` for `kind`, by user id (absent: the defaults). */
export async function preferencesOf(db: DynamicDatabase, userIds: readonly number[], kind: string): Promise<Map<number, KindPreference>> {
  const found = new Map<number, KindPreference>();
  if (userIds.length === 0) return found;
  const rows = await db
    .selectFrom(NOTIFY_PREFERENCE_TABLE)
    .select(['user_id', 'in_app', 'email'])
    .where('user_id', 'in', userIds)
    .where('kind', '=', kind)
    .execute();
  for (const row of rows) found.set(Number(row.user_id), { inApp: Boolean(row.in_app), email: row.email as EmailChoice });
  return found;
}

/** Every kind's choice of the actor, in the spec's order (the /account form). */
export async function myPreferences(
  model: AppModel,
  db: DynamicDatabase,
  actor: Actor,
): Promise<{ kind: string; label: string; preference: KindPreference }[]> {
  const rows =
    actor.visitor || actor.system
      ? []
      : await db.selectFrom(NOTIFY_PREFERENCE_TABLE).select(['kind', 'in_app', 'email']).where('user_id', '=', actor.userId).execute();
  const byKind = new Map(rows.map((r) => [String(r.kind), { inApp: Boolean(r.in_app), email: r.email as EmailChoice }]));
  return model.notifications.map((n) => ({ kind: n.name, label: n.label, preference: byKind.get(n.name) ?? DEFAULT_KIND_PREFERENCE }));
}

/** Sets the actor's own choice for one kind; VALIDATION_FAILED for a kind or choice the spec does not know. */
export async function setMyPreference(
  model: AppModel,
  db: DynamicDatabase,
  actor: Actor,
  kind: string,
  preference: KindPreference,
): Promise<void> {
  if (actor.visitor || actor.system) throw new NinefoldError('UNAUTHENTICATED', 'Sign in to choose your notifications.');
  if (!model.notifications.some((n) => n.name === kind)) {
    throw new NinefoldError('VALIDATION_FAILED', `There is no kind of notification "${kind}".`, {
      fieldErrors: [{ field: 'kind', code: 'unknown', message: 'Unknown kind of notification.' }],
    });
  }
  if (!EMAIL_CHOICES.includes(preference.email)) {
    throw new NinefoldError('VALIDATION_FAILED', `E-mail is one of ${EMAIL_CHOICES.join(', ')}.`, {
      fieldErrors: [{ field: 'email', code: 'invalid', message: `Choose one of ${EMAIL_CHOICES.join(', ')}.` }],
    });
  }
  await db
    .insertInto(NOTIFY_PREFERENCE_TABLE)
    .values({ user_id: actor.userId, kind, in_app: preference.inApp, email: preference.email })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ in_app: preference.inApp, email: preference.email }))
    .execute();
}
