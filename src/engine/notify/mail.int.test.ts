import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import { createActor, ninefoldError } from '@testing/engine/ops';
import { deskModel } from '@testing/engine/notify';
import { createOps } from '../ops/create-ops';
import type { Ops } from '../ops/ops';
import type { Store } from '../store/types';
import type { Actor } from '../ground/actor';
import { MAIL_TABLE } from '../store/schema/notify-tables';
import { dispatchOutbox } from './dispatch';
import { makeDigests } from './digest';
import { sendDueMail } from './mail-worker';
import type { Mailer, OutgoingMail } from './mailer';
import { setMyPreference } from './preferences';
import { unsubscribe, unsubscribeTarget } from './unsubscribe';

const ORIGIN = 'https://desk.example.com';
const soon = () => Date.now() + 10_000;

/** A Mailer that keeps what it is given; `failNext` refuses that many sends first. */
class RecordingMailer implements Mailer {
  readonly sent: OutgoingMail[] = [];
  failNext = 0;
  async send(mail: OutgoingMail): Promise<void> {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('421 try again later');
    }
    this.sent.push(mail);
  }
}

forEachDatabase('notifications: e-mail', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let other: Actor;
  let customer: Actor;

  beforeAll(async () => {
    store = await database.openSynced(deskModel);
    ops = createOps({ model: deskModel, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Ada Agent');
    other = await createActor(store.db, ['agent'], 'Otto Agent');
    customer = await createActor(store.db, ['customer'], 'Cora Customer');
  });
  afterAll(() => store.close());

  const ctx = () => ({ model: deskModel, db: store.db });
  const dispatch = (mailer: Mailer | null) => dispatchOutbox(ctx(), { mailer }, soon());
  const send = (mailer: Mailer, now = new Date()) => sendDueMail(ctx(), mailer, ORIGIN, now, soon());
  const mailsTo = (mailer: RecordingMailer, user: Actor) => mailer.sent.filter((m) => m.to === user.email);

  it('writes no e-mail row without a mailer', async () => {
    const ticket = await ops.create(agent, 'ticket', { subject: 'No mailer here' });
    await ops.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
    await dispatch(null);
    const rows = await store.db.selectFrom(MAIL_TABLE).select('id').where('record_id', '=', ticket.id).execute();
    expect(rows).toHaveLength(0);
  });

  it('sends each recipient their own mail, text and HTML, with the link and one-click unsubscribe, never a field they may not read', async () => {
    const mailer = new RecordingMailer();
    const ticket = await ops.create(agent, 'ticket', { subject: 'Mail me', secret: 'TOPSECRET-42', requester: customer.userId });
    const assigned = await ops.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
    await ops.transition(agent, 'ticket', ticket.id, 'resolve', { version: assigned.version });
    await dispatch(mailer);
    expect(await send(mailer)).toMatchObject({ sent: 2, failed: 0 });
    // The assignee: told of the assignment (with the secret, which agents read); the requester: of the resolution, without it.
    const [toOther] = mailsTo(mailer, other);
    expect(toOther).toMatchObject({ subject: `Ticket ${ticket.id} was assigned to you` });
    expect(toOther!.text).toContain('Mail me: TOPSECRET-42');
    const [toCustomer] = mailsTo(mailer, customer);
    expect(toCustomer!.subject).toBe('Mail me was resolved');
    expect(toCustomer!.text).toContain('Secret: (hidden). Assignee: (hidden).');
    expect(toCustomer!.html).toContain('Secret: (hidden). Assignee: (hidden).');
    for (const part of [toCustomer!.text, toCustomer!.html, toCustomer!.subject]) {
      expect(part).not.toContain('TOPSECRET');
      expect(part).not.toContain('Otto');
    }
    expect(toCustomer!.text).toContain(`${ORIGIN}/tickets/${ticket.id}`);
    expect(toCustomer!.html).toContain(`href="${ORIGIN}/tickets/${ticket.id}"`);
    expect(toCustomer!.unsubscribeUrl).toMatch(
      new RegExp(`^${ORIGIN}/unsubscribe/${customer.userId}\\.ticketResolved\\.[A-Za-z0-9_-]{43}$`),
    );
    expect(toCustomer!.text).toContain(toCustomer!.unsubscribeUrl);
    expect(toCustomer!.messageId).toMatch(/^<nf-mail-\d+@desk\.example\.com>$/);
    expect(mailer.sent.filter((m) => m.to === agent.email)).toHaveLength(0);
    // Sent is sent.
    expect(await send(mailer)).toMatchObject({ sent: 0 });
  });

  it('retries a failed send later, with the same Message-ID', async () => {
    const mailer = new RecordingMailer();
    const ticket = await ops.create(agent, 'ticket', { subject: 'Flaky server' });
    await ops.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
    await dispatch(mailer);
    mailer.failNext = 1;
    const now = new Date();
    expect(await send(mailer, now)).toMatchObject({ sent: 0, failed: 1 });
    const [row] = await store.db.selectFrom(MAIL_TABLE).selectAll().where('record_id', '=', ticket.id).execute();
    expect(row).toMatchObject({ attempts: 1, error: '421 try again later', sent_at: null });
    // Not before its wait is over.
    expect(await send(mailer, new Date(now.getTime() + 30_000))).toMatchObject({ sent: 0, failed: 0 });
    expect(await send(mailer, new Date(now.getTime() + 61_000))).toMatchObject({ sent: 1, failed: 0 });
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]!.messageId).toBe(`<nf-mail-${Number(row!.id)}@desk.example.com>`);
    const [after] = await store.db.selectFrom(MAIL_TABLE).selectAll().where('record_id', '=', ticket.id).execute();
    expect(after).toMatchObject({ attempts: 2, error: null });
    expect(after!.sent_at).not.toBeNull();
  });

  it('keeps the mails of a user who chose the digest for one mail a day, once; the link unsubscribes from e-mail', async () => {
    const mailer = new RecordingMailer();
    const digester = await createActor(store.db, ['agent'], 'Dora Digest');
    await setMyPreference(deskModel, store.db, digester, 'ticketAssigned', { inApp: true, email: 'digest' });
    const tickets = [];
    for (const subject of ['Digest one', 'Digest two']) {
      const ticket = await ops.create(agent, 'ticket', { subject });
      await ops.update(agent, 'ticket', ticket.id, { assignee: digester.userId }, ticket.version);
      tickets.push(ticket);
    }
    await dispatch(mailer);
    await send(mailer);
    expect(mailsTo(mailer, digester)).toHaveLength(0);
    // Today is not over: no digest yet.
    expect(await makeDigests(ctx(), ORIGIN, new Date())).toBe(0);
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect(await makeDigests(ctx(), ORIGIN, tomorrow)).toBeGreaterThanOrEqual(1);
    expect(await makeDigests(ctx(), ORIGIN, tomorrow)).toBe(0);
    await send(mailer, tomorrow);
    const digests = mailsTo(mailer, digester);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.subject).toMatch(/^Your 2 notifications of \d{4}-\d{2}-\d{2}$/);
    for (const ticket of tickets) expect(digests[0]!.text).toContain(`Ticket ${ticket.id} was assigned to you`);
    expect(digests[0]!.text).toContain(`${ORIGIN}/tickets/${tickets[0]!.id}`);
    expect(await send(mailer, tomorrow)).toMatchObject({ sent: 0 });

    // The digest's link turns off every kind's e-mail; in the app stays on.
    const token = digests[0]!.unsubscribeUrl.split('/unsubscribe/')[1]!;
    expect(await unsubscribeTarget(deskModel, store.db, token)).toMatchObject({ userId: digester.userId, kind: '*' });
    await unsubscribe(deskModel, store.db, token);
    const { rows } = await sql<{ kind: string; email: string; in_app: boolean }>`select kind, email, in_app from nf_notify_preference
      where user_id = ${digester.userId} order by kind`.execute(store.db);
    expect(rows.map((r) => [r.kind, r.email, r.in_app])).toEqual(deskModel.notifications.map((n) => [n.name, 'off', true]).sort());
    const later = await ops.create(agent, 'ticket', { subject: 'After unsubscribing' });
    await ops.update(agent, 'ticket', later.id, { assignee: digester.userId }, later.version);
    await dispatch(mailer);
    expect(await store.db.selectFrom(MAIL_TABLE).select('id').where('record_id', '=', later.id).execute()).toHaveLength(0);
  });

  it("refuses a link it did not sign, or another user's or kind's (NOT_FOUND)", async () => {
    const mailer = new RecordingMailer();
    const ticket = await ops.create(agent, 'ticket', { subject: 'Forge me' });
    await ops.update(agent, 'ticket', ticket.id, { assignee: other.userId }, ticket.version);
    await dispatch(mailer);
    await send(mailer);
    const token = mailsTo(mailer, other)[0]!.unsubscribeUrl.split('/unsubscribe/')[1]!;
    const [, kind, signature] = token.split('.');
    for (const forged of [
      `${customer.userId}.${kind}.${signature}`,
      `${other.userId}.ticketResolved.${signature}`,
      `${other.userId}.*.${signature}`,
      'nonsense',
    ]) {
      expect((await ninefoldError(unsubscribe(deskModel, store.db, forged))).code).toBe('NOT_FOUND');
    }
    expect((await unsubscribeTarget(deskModel, store.db, token)).label).toBe('A ticket is assigned to you');
  });

  if (database.kind === 'postgres') {
    it('two processes sending at once send each mail once', async () => {
      const mailer = new RecordingMailer();
      const tickets = await Promise.all(Array.from({ length: 30 }, (_, i) => ops.create(agent, 'ticket', { subject: `Mail race ${i}` })));
      await Promise.all(tickets.map((t) => ops.update(agent, 'ticket', t.id, { assignee: other.userId }, t.version)));
      await dispatch(mailer);
      const second = await database.open();
      try {
        const now = new Date();
        const runs = await Promise.all([
          sendDueMail(ctx(), mailer, ORIGIN, now, soon()),
          sendDueMail({ model: deskModel, db: second.db }, mailer, ORIGIN, now, soon()),
          sendDueMail(ctx(), mailer, ORIGIN, now, soon()),
          sendDueMail({ model: deskModel, db: second.db }, mailer, ORIGIN, now, soon()),
        ]);
        expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(30);
        const subjects = mailer.sent.map((m) => m.subject);
        expect(new Set(subjects).size).toBe(30);
        expect(new Set(mailer.sent.map((m) => m.messageId)).size).toBe(30);
        for (const ticket of tickets) expect(subjects).toContain(`Ticket ${ticket.id} was assigned to you`);
      } finally {
        await second.close();
      }
    });
  }
});
