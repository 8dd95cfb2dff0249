import { beforeAll, expect, it } from 'vitest';
import { noticeBoardSpec } from '@testing/engine/public';
import { createIdentity } from '@/engine/identity/identity';
import type { Identity } from '@/engine/identity/types';
import { openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '@/engine/store/types';
import type { OutageRequest } from './outage';
import { registerVisitorDoor, VISITOR_DOOR, type VisitorDoor } from './visitor-door';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/** A spec that lets visitors in, with the per-address limit a spec constant sets. */
const model = buildModel({ ...noticeBoardSpec, constants: { ...noticeBoardSpec.constants, apiRateLimitPerIpPerMinute: { value: 5 } } });

const NOTICES = { path: '/notices', kind: 'page' } as const;

const page = (cookie?: string): OutageRequest => ({
  url: '/notices',
  method: 'GET',
  headers: { 'x-ninefold-client-ip': '192.0.2.10', accept: 'text/html', ...(cookie ? { cookie } : {}) },
});

/**
 * The door as the server registers it, on a real identity: the sixth anonymous page request of a
 * minute is refused, a signed-in user's requests from the same address are never counted, and a
 * cookie that names no session (made up, or ended by signing out) counts as a visitor.
 */
forEachDatabase('visitors’ page requests limited per address', (database) => {
  let store: Store;
  let identity: Identity;
  let door: VisitorDoor;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    identity = createIdentity(store.db, Object.keys(model.roles));
    registerVisitorDoor({ model, identity });
    door = (globalThis as Record<symbol, VisitorDoor>)[VISITOR_DOOR]!;
    return () => {
      delete (globalThis as Record<symbol, unknown>)[VISITOR_DOOR];
    };
  });

  it('refuses the sixth anonymous page request, never a signed-in user, and counts an ended session', async () => {
    const user = await identity.createUser(SYSTEM_ACTOR, {
      email: 'agent@example.com',
      password: 'correct horse battery staple',
      roles: ['agent'],
    });
    const session = await identity.createSession(user.id);
    for (let i = 0; i < 5; i += 1) expect(await door(page(), NOTICES)).toBeNull();
    const refused = await door(page(), NOTICES);
    expect(refused).toMatchObject({
      status: 429,
      headers: { 'ratelimit-policy': '"visitor";q=5;w=60', 'content-type': 'text/html; charset=utf-8' },
    });
    expect(refused!.body).toContain('Too many requests: at most 5 a minute.');
    for (let i = 0; i < 10; i += 1) expect(await door(page(`nf_session=${session.token}`), NOTICES)).toBeNull();
    expect(await door(page('nf_session=made-up-token'), NOTICES)).toMatchObject({ status: 429 });
    await identity.endSession(session.token);
    expect(await door(page(`nf_session=${session.token}`), NOTICES)).toMatchObject({ status: 429 });
  });
});
