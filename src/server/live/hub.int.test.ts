import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createIdentity } from '@/engine/identity/identity';
import { createOps } from '@/engine/ops/create-ops';
import type { NinefoldError } from '@/engine/errors/ninefold-error';
import { createActor, testModel, testSpec } from '@testing/engine/ops';
import { buildModel } from '@/engine/spec/build';
import { problemResponse } from '../problem';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import { LiveHub } from './hub';

const PASSWORD = 'correct horse battery';

/** A stream's events as the browser would parse them. */
class Recorder {
  text = '';
  ended = false;
  readonly sink = { write: (t: string) => void (this.text += t), end: () => void (this.ended = true) };

  events(): { event: string; data: unknown }[] {
    return this.text
      .split('\n\n')
      .map((block) => {
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        return event && data ? { event, data: JSON.parse(data) as unknown } : null;
      })
      .filter((e): e is { event: string; data: unknown } => e !== null);
  }

  /** Every id of the entity this stream was told about ("some" as null). */
  idsOf(entity: string): (number | null)[] {
    return this.events().flatMap((e) => {
      if (e.event !== 'change') return [];
      const ids = (e.data as Record<string, number[] | null>)[entity];
      return ids === undefined ? [] : ids === null ? [null] : ids;
    });
  }
}

/** Waits (without asserting any time) until `done` holds; fails after a generous bound. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

forEachDatabase('live streams: who hears of which change', (database) => {
  let engine: TestEngine;
  let hub: LiveHub;
  let agent: Actor;
  let customer: Actor;
  let admin: Actor;

  async function stream(actor: Actor): Promise<{ recorder: Recorder; token: string }> {
    const { session } = await engine.identity.signIn(actor.email, PASSWORD, { ip: '127.0.0.1' });
    const recorder = new Recorder();
    hub.connect(session.token, actor, recorder.sink);
    return { recorder, token: session.token };
  }

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    hub = new LiveHub(engine, { coalesceMs: 20, settleMs: 50 });
    await hub.start();
    agent = await createActor(engine.store.db, ['agent'], 'Live Agent');
    customer = await createActor(engine.store.db, ['customer'], 'Live Customer');
    admin = await createActor(engine.store.db, ['admin'], 'Live Admin');
  });
  afterAll(() => hub.stop());

  it('tells the customer of public comments on their ticket, never of internal ones (create, update, delete)', async () => {
    const { ops } = engine;
    const agentStream = await stream(agent);
    const customerStream = await stream(customer);
    const ticket = await ops.create(customer, 'ticket', { subject: 'Printer on fire' });
    await until(() => customerStream.recorder.idsOf('ticket').includes(ticket.id), 'the customer to hear of their ticket');

    const internal = await ops.create(agent, 'comment', { ticket: ticket.id, body: 'Customer sounds upset.', internal: true });
    const updated = await ops.update(agent, 'comment', internal.id, { body: 'Customer sounds very upset.' }, internal.version);
    await ops.delete(admin, 'comment', internal.id, updated.version);
    const internal2 = await ops.create(agent, 'comment', { ticket: ticket.id, body: 'Second note.', internal: true });
    const reply = await ops.create(agent, 'comment', { ticket: ticket.id, body: 'We are on it.' });
    await until(() => customerStream.recorder.idsOf('comment').includes(reply.id), 'the customer to hear of the public reply');
    await until(() => agentStream.recorder.idsOf('comment').includes(internal2.id), 'the agent to hear of the internal note');
    await hub.settled();

    expect(agentStream.recorder.idsOf('comment')).toEqual(expect.arrayContaining([internal.id, internal2.id, reply.id]));
    // Only the public reply's id, ever: no internal id, and no bare "comments changed" (null).
    expect([...new Set(customerStream.recorder.idsOf('comment'))]).toEqual([reply.id]);

    // A public comment deleted: judged on its last image, so the customer hears of it.
    await ops.delete(admin, 'comment', reply.id, reply.version);
    await until(
      () => customerStream.recorder.idsOf('comment').filter((id) => id === reply.id).length === 2,
      'the customer to hear of the deletion',
    );
    expect(customerStream.recorder.text).not.toContain('Second note');
  });

  it('sends nothing for a transaction that rolls back', async () => {
    const { ops } = engine;
    const agentStream = await stream(agent);
    let rolledBack = 0;
    await engine.store.db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{
          id: number;
        }>`insert into organization (name, tier) values ('Never saved', 'standard') returning id`.execute(trx);
        rolledBack = Number(rows[0]!.id);
        throw new Error('undo');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message === 'undo')) throw error;
      });
    const marker = await ops.create(admin, 'organization', { name: 'Saved after' });
    await until(() => agentStream.recorder.idsOf('organization').includes(marker.id), 'the committed change');
    expect(rolledBack).toBeGreaterThan(0);
    expect(agentStream.recorder.idsOf('organization')).toEqual([marker.id]);
  });

  it('sends a stream that opens late what changed since its page was rendered, filtered for its viewer', async () => {
    const { ops } = engine;
    const renderedAt = Date.now();
    const ticket = await ops.create(customer, 'ticket', { subject: 'Changed before the stream opened' });
    const note = await ops.create(agent, 'comment', { ticket: ticket.id, body: 'Early note.', internal: true });
    await hub.settled();
    const late = await stream(customer);
    const { session } = await engine.identity.signIn(customer.email, PASSWORD, { ip: '127.0.0.1' });
    const replayed = new Recorder();
    hub.connect(session.token, customer, replayed.sink, renderedAt);
    await until(() => replayed.idsOf('ticket').includes(ticket.id), 'the replay');
    expect(replayed.idsOf('comment')).not.toContain(note.id);
    // Without `since`, nothing from before.
    expect(late.recorder.idsOf('ticket')).toEqual([]);
  });

  it('tells a bulk change without ids only to viewers who read every record', async () => {
    const agentStream = await stream(agent);
    const customerStream = await stream(customer);
    // One statement over more rows than a notification names.
    await sql`insert into organization (name, tier) select 'Bulk ' || n, 'standard' from generate_series(1, 600) n`.execute(
      engine.store.db,
    );
    const after = await engine.ops.create(customer, 'ticket', { subject: 'After the bulk insert' });
    await until(() => agentStream.recorder.idsOf('organization').includes(null), 'the agent to hear that organizations changed');
    await until(() => customerStream.recorder.idsOf('ticket').includes(after.id), 'the customer to hear of their ticket');
    expect(customerStream.recorder.idsOf('organization')).toEqual([]);
  });

  it('ends the stream at once when its session signs out, and when the account is disabled', async () => {
    const signedOut = await stream(customer);
    const other = await stream(customer);
    await engine.identity.endSession(signedOut.token);
    await until(() => signedOut.recorder.ended, 'the signed-out stream to end');
    expect(signedOut.recorder.events().at(-1)).toEqual({ event: 'end', data: { reason: 'signed-out' } });
    expect(other.recorder.ended).toBe(false);

    const victim = await createActor(engine.store.db, ['agent'], 'Soon Disabled');
    const disabled = await stream(victim);
    await engine.identity.disableUser(admin, victim.userId);
    await until(() => disabled.recorder.ended, "the disabled user's stream to end");
    expect(other.recorder.ended).toBe(false);
  });

  it('takes up a role change: a customer made agent hears of internal notes', async () => {
    const { ops } = engine;
    const promoted = await createActor(engine.store.db, ['customer'], 'Promoted Customer');
    const promotedStream = await stream(promoted);
    const ticket = await ops.create(promoted, 'ticket', { subject: 'Promotion' });
    await engine.identity.setRoles(admin, promoted.userId, ['customer', 'agent']);
    // After the hub re-read the session (and the cache settled), internal notes are readable.
    await sql`select 1`.execute(engine.store.db);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const note = await ops.create(agent, 'comment', { ticket: ticket.id, body: 'Now visible.', internal: true });
    await until(() => promotedStream.recorder.idsOf('comment').includes(note.id), 'the promoted user to hear of the note');
  });

  it("takes up a user field change: a customer who joins an organization hears of its people's tickets", async () => {
    const { ops } = engine;
    const organization = await ops.create(admin, 'organization', { name: 'Live Org' });
    const colleague = await createActor(engine.store.db, ['customer'], 'Live Colleague');
    await sql`update nf_user set f_organization = ${organization.id} where id = ${colleague.userId}`.execute(engine.store.db);
    const ticket = await ops.create(colleague, 'ticket', { subject: 'Shared with the organization' });
    const joiner = await createActor(engine.store.db, ['customer'], 'Live Joiner');
    const joinerStream = await stream(joiner);
    await sql`update nf_user set f_organization = ${organization.id} where id = ${joiner.userId}`.execute(engine.store.db);
    // After the hub re-read the session (and the cache settled), the organization's tickets are readable.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const changed = await ops.update(colleague, 'ticket', ticket.id, { subject: 'Shared, and changed' }, ticket.version);
    await until(() => joinerStream.recorder.idsOf('ticket').includes(changed.id), "the joiner to hear of the organization's ticket");
  });

  it('refuses a session’s stream beyond its cap and a user’s beyond theirs (RATE_LIMITED, Retry-After), and frees a slot when a stream closes', async () => {
    const capped = new LiveHub({
      ...engine,
      model: buildModel({
        ...testSpec,
        constants: { ...testSpec.constants, liveStreamsPerSession: { value: 2 }, liveStreamsPerUser: { value: 3 } },
      }),
    });
    const viewer = await createActor(engine.store.db, ['agent'], 'Many Tabs');
    const session = async () => (await engine.identity.signIn(viewer.email, PASSWORD, { ip: '127.0.0.1' })).session.token;
    const open = (token: string) => {
      const recorder = new Recorder();
      return { recorder, connection: capped.connect(token, viewer, recorder.sink) };
    };
    const refusalOf = (token: string) => {
      try {
        open(token);
      } catch (error) {
        return error as NinefoldError;
      }
      throw new Error('the stream was not refused');
    };
    await capped.start();
    try {
      const first = await session();
      const [a, b] = [open(first), open(first)];
      const perSession = refusalOf(first);
      expect([perSession.code, perSession.status, perSession.retryAfterSeconds, perSession.details]).toEqual([
        'RATE_LIMITED',
        429,
        60,
        { constant: 'liveStreamsPerSession', max: 2 },
      ]);
      expect(perSession.message).toBe(
        "This browser already has 2 live connections open: close some of this application's tabs or windows. Live updates resume by themselves.",
      );
      const answer = problemResponse(perSession);
      expect([answer.status, answer.headers.get('retry-after'), ((await answer.json()) as { code: string }).code]).toEqual([
        429,
        '60',
        'RATE_LIMITED',
      ]);

      // Closing a stream gives its slot back.
      a.connection.close();
      expect(capped.refusal(first, viewer)).toBeNull();
      const c = open(first);

      const second = await session();
      open(second);
      const perUser = refusalOf(second);
      expect(perUser.details).toEqual({ constant: 'liveStreamsPerUser', max: 3 });
      expect(perUser.message).toBe(
        'Your account already has 3 live connections open: close this application in other tabs, windows or devices. Live updates resume by themselves.',
      );
      // Another user is not held back by this one.
      expect(capped.refusal(second, agent)).toBeNull();

      // The streams the server ends (their session signed out) give their slots back.
      await engine.identity.endSession(first);
      await until(() => b.recorder.ended && c.recorder.ended, 'the signed-out streams to end');
      expect(capped.refusal(second, viewer)).toBeNull();
      // So does a stream whose browser has gone (writing to it fails).
      const gone = {
        write: () => {
          throw new Error('the browser left');
        },
        end: () => undefined,
      };
      capped.connect(second, viewer, gone);
      expect(capped.refusal(second, viewer)).toBeNull();
    } finally {
      capped.stop();
    }
  });

  if (database.kind === 'postgres') {
    it('hears a change made through another server process on the same database', async () => {
      // A second "server": its own store (own pool), ops and feed on the same PostgreSQL.
      const otherStore = await database.open();
      const otherOps = createOps({ model: testModel, db: otherStore.db });
      const agentStream = await stream(agent);
      const created = await otherOps.create(agent, 'ticket', { subject: 'Made elsewhere', requester: customer.userId });
      await until(() => agentStream.recorder.idsOf('ticket').includes(created.id), 'the change from the other process');
      // And a sign-out done by the other process ends this process's stream.
      const { session } = await engine.identity.signIn(customer.email, PASSWORD, { ip: '127.0.0.1' });
      const recorder = new Recorder();
      hub.connect(session.token, customer, recorder.sink);
      await createIdentity(otherStore.db, ['admin', 'agent', 'customer']).endSession(session.token);
      await until(() => recorder.ended, 'the stream to end after a sign-out elsewhere');
      await otherStore.close();
    });

    it('listens again when its connection drops, and tells the streams to catch up', async () => {
      const agentStream = await stream(agent);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'listen %' and pid <> pg_backend_pid()`.execute(
        engine.store.db,
      );
      await until(() => agentStream.recorder.events().some((e) => e.event === 'resync'), 'the resync after reconnecting');
      const created = await engine.ops.create(agent, 'ticket', { subject: 'After the reconnect', requester: customer.userId });
      await until(() => agentStream.recorder.idsOf('ticket').includes(created.id), 'a change after the reconnect');
    });
  }
});
