import { beforeAll, describe, expect, it } from 'vitest';
import { createIdentity } from '../identity/identity';
import type { Identity } from '../identity/types';
import { fieldCodes, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import type { UserPreferences } from './preferences';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

const model = buildModel({ name: 'preferences', roles: { agent: { label: 'Agent' } } });

forEachDatabase('preferences', (database) => {
  let store: Store;
  let identity: Identity;
  let counter = 0;
  const newUserId = async () =>
    (await identity.createUser(SYSTEM_ACTOR, { email: `pref${(counter += 1)}@example.com`, password: 'a long password', roles: ['agent'] }))
      .id;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    identity = createIdentity(store.db, Object.keys(model.roles));
  });

  it('gives the defaults to a user who never chose, and keeps a choice on the account for every later read', async () => {
    const userId = await newUserId();
    expect(await identity.preferencesOf(userId)).toEqual({ theme: 'system', timeZone: 'auto' });
    expect(await identity.setPreferences(userId, { theme: 'dark' })).toEqual({ theme: 'dark', timeZone: 'auto' });
    expect(await identity.preferencesOf(userId)).toEqual({ theme: 'dark', timeZone: 'auto' });
    // Another server (or a restart) reads the same account: the choice is in the database, not in memory.
    const again = createIdentity(store.db, Object.keys(model.roles));
    expect(await again.preferencesOf(userId)).toEqual({ theme: 'dark', timeZone: 'auto' });
    await identity.setPreferences(userId, { theme: 'light' });
    expect(await again.preferencesOf(userId)).toEqual({ theme: 'light', timeZone: 'auto' });
  });

  it("keeps each user's choice apart", async () => {
    const [ana, bo] = [await newUserId(), await newUserId()];
    await identity.setPreferences(ana, { theme: 'dark' });
    expect(await identity.preferencesOf(bo)).toEqual({ theme: 'system', timeZone: 'auto' });
  });

  it('changes only the preferences given, merging into what is stored', async () => {
    const userId = await newUserId();
    await store.db
      .updateTable('nf_user')
      .set({ preferences: JSON.stringify({ theme: 'dark', later: 'kept' }) })
      .where('id', '=', userId)
      .execute();
    expect(await identity.setPreferences(userId, {})).toEqual({ theme: 'dark', timeZone: 'auto' });
    await identity.setPreferences(userId, { theme: 'light' });
    const row = await store.db.selectFrom('nf_user').select('preferences').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(row.preferences).toEqual({ theme: 'light', later: 'kept' });
  });

  it('reads a value it does not know (stored by another version) as the default', async () => {
    const userId = await newUserId();
    await store.db
      .updateTable('nf_user')
      .set({ preferences: JSON.stringify({ theme: 'sepia' }) })
      .where('id', '=', userId)
      .execute();
    expect(await identity.preferencesOf(userId)).toEqual({ theme: 'system', timeZone: 'auto' });
  });

  it('refuses a choice outside the list and an unknown preference, and changes nothing', async () => {
    const userId = await newUserId();
    await identity.setPreferences(userId, { theme: 'dark' });
    const badTheme = await ninefoldError(identity.setPreferences(userId, { theme: 'sepia' } as unknown as UserPreferences));
    expect(badTheme.code).toBe('VALIDATION_FAILED');
    expect(fieldCodes(badTheme)).toEqual(['theme:invalid_choice']);
    expect(badTheme.fieldErrors[0]!.message).toBe('Choose one of: system, light, dark.');
    const unknown = await ninefoldError(identity.setPreferences(userId, { fontSize: 'huge' } as unknown as UserPreferences));
    expect(fieldCodes(unknown)).toEqual(['fontSize:unknown_preference']);
    expect(await identity.preferencesOf(userId)).toEqual({ theme: 'dark', timeZone: 'auto' });
  });

  it('keeps a chosen time zone or automatic, and refuses a zone Intl does not know', async () => {
    const userId = await newUserId();
    expect(await identity.setPreferences(userId, { timeZone: 'Europe/Paris' })).toEqual({ theme: 'system', timeZone: 'Europe/Paris' });
    const badZone = await ninefoldError(identity.setPreferences(userId, { timeZone: 'Europe/Pariss' }));
    expect(fieldCodes(badZone)).toEqual(['timeZone:invalid_choice']);
    expect(badZone.fieldErrors[0]!.message).toBe('Choose one of: auto, or an IANA time zone such as Europe/Paris.');
    expect(await identity.preferencesOf(userId)).toEqual({ theme: 'system', timeZone: 'Europe/Paris' });
    expect(await identity.setPreferences(userId, { timeZone: 'auto' })).toEqual({ theme: 'system', timeZone: 'auto' });
  });

  it('answers NOT_FOUND for no such user', async () => {
    expect((await ninefoldError(identity.setPreferences(999_999, { theme: 'dark' }))).code).toBe('NOT_FOUND');
  });
});

describe('the preferences column', () => {
  it('is added to nf_user by the schema sync (an additive change)', async () => {
    const { systemTables } = await import('../store/schema/desired');
    const user = systemTables().find((t) => t.name === 'nf_user');
    expect(user?.columns.find((c) => c.name === 'preferences')).toMatchObject({ type: 'jsonb', nullable: false });
  });
});
