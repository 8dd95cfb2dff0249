import { sql } from 'kysely';
import { z } from 'zod';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import type { DynamicDatabase } from '../store/types';
import { cachedRead } from '../store/write-clock';
import { isTimeZone } from '../time/zone';

/** How pages look for a user: as the device says (prefers-color-scheme), or always light or dark. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** The zone times are shown and typed in: the browser's own ('auto'), or an IANA zone the user chose. */
export const AUTOMATIC_ZONE = 'auto';
export type ZoneChoice = typeof AUTOMATIC_ZONE | (string & {});

/**
 * A user's own choices about how the application looks and behaves for them. Each key has a
 * default, so a user who never chose anything, or a value the engine no longer knows, reads as
 * the default rather than as an error.
 */
export interface UserPreferences {
  readonly theme: Theme;
  readonly timeZone: ZoneChoice;
}

const PREFERENCE_SCHEMAS = {
  theme: z.enum(THEMES),
  timeZone: z.string().refine((zone) => zone === AUTOMATIC_ZONE || isTimeZone(zone)),
} satisfies { [K in keyof UserPreferences]: z.ZodType<UserPreferences[K]> };

export const DEFAULT_PREFERENCES: UserPreferences = { theme: 'system', timeZone: AUTOMATIC_ZONE };

/** What a refused value of each preference should have been, for its error message. */
const CHOICES: { [K in keyof UserPreferences]: string } = {
  theme: THEMES.join(', '),
  timeZone: `${AUTOMATIC_ZONE}, or an IANA time zone such as Europe/Paris`,
};

/** Kept on the account (nf_user.preferences, jsonb), so every device of the user finds them. */
export interface Preferences {
  /** The user's preferences, each one its default when never chosen (or stored by an older engine). */
  preferencesOf(userId: number): Promise<UserPreferences>;
  /** Changes the given preferences only; VALIDATION_FAILED for a value outside its choices, NOT_FOUND for no such user. */
  setPreferences(userId: number, changes: Partial<UserPreferences>): Promise<UserPreferences>;
}

/** Reads what was stored, keeping what each key's schema accepts and the default for the rest. */
function fromStored(stored: unknown): UserPreferences {
  const record = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const theme = PREFERENCE_SCHEMAS.theme.safeParse(record.theme);
  const timeZone = PREFERENCE_SCHEMAS.timeZone.safeParse(record.timeZone);
  return {
    theme: theme.success ? theme.data : DEFAULT_PREFERENCES.theme,
    timeZone: timeZone.success ? timeZone.data : DEFAULT_PREFERENCES.timeZone,
  };
}

function choicesOf(key: PropertyKey | undefined): string {
  return typeof key === 'string' && Object.hasOwn(CHOICES, key) ? CHOICES[key as keyof UserPreferences] : '';
}

function checked(changes: Partial<UserPreferences>): Partial<UserPreferences> {
  const parsed = z.object(PREFERENCE_SCHEMAS).partial().strict().safeParse(changes);
  if (parsed.success) return parsed.data;
  const fieldErrors = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: key, code: 'unknown_preference', message: 'No such preference.' }))
      : [{ field: String(issue.path[0]), code: 'invalid_choice', message: `Choose one of: ${choicesOf(issue.path[0])}.` }],
  );
  throw new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors });
}

export function createPreferences(db: DynamicDatabase): Preferences {
  return {
    async preferencesOf(userId) {
      // Asked on every page of a user whose browser has no theme cookie yet: from memory until the next write.
      const row = await cachedRead(db, `preferences\u0000${userId}`, () =>
        db.selectFrom('nf_user').select('preferences').where('id', '=', userId).executeTakeFirst(),
      );
      return fromStored(row?.preferences);
    },

    async setPreferences(userId, changes) {
      const values = checked(changes);
      // Merged in the database, so two devices changing different preferences at once both keep theirs.
      const row = await db
        .updateTable('nf_user')
        .set({ preferences: sql`preferences || ${JSON.stringify(values)}::jsonb`, updated_at: new Date() })
        .where('id', '=', userId)
        .returning('preferences')
        .executeTakeFirst();
      if (!row) throw notFound('user');
      return fromStored(row.preferences);
    },
  };
}
