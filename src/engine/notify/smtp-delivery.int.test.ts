import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import { createActor } from '@testing/engine/ops';
import { deskModel } from '@testing/engine/notify';
import { startCaptureServer, type CaptureServer } from '@testing/smtp/capture-server';
import { readMail } from '@testing/smtp/read-mail';
import { createOps } from '../ops/create-ops';
import type { Ops } from '../ops/ops';
import type { Store } from '../store/types';
import type { Actor } from '../ground/actor';
import { dispatchOutbox } from './dispatch';
import { sendDueMail } from './mail-worker';
import { smtpMailerFromEnv } from './email/smtp-mailer';

// The whole road of an e-mail: a change, the outbox, the dispatcher, the worker, nodemailer, and a
// real SMTP server started here, which receives each recipient's own message.

const ORIGIN = 'https://desk.example.com';
const soon = () => Date.now() + 10_000;

forEachDatabase('notifications: e-mail through a real SMTP server', (database) => {
  let smtp: CaptureServer;
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let assignee: Actor;
  let customer: Actor;

  beforeAll(async () => {
    smtp = await startCaptureServer();
    store = await database.openSynced(deskModel);
    ops = createOps({ model: deskModel, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Ada Agent');
    assignee = await createActor(store.db, ['agent'], 'Otto Agent');
    customer = await createActor(store.db, ['customer'], 'Cora Customer');
  });
  afterAll(async () => {
    await store.close();
    await smtp.close();
  });

  it('delivers each recipient their own message, once, and never a field they may not read', async () => {
    const mailer = smtpMailerFromEnv({ SMTP_URL: smtp.url, NINEFOLD_MAIL_FROM: 'Desk <desk@example.com>' })!;
    const ctx = { model: deskModel, db: store.db };
    const ticket = await ops.create(agent, 'ticket', { subject: 'Over the wire', secret: 'TOPSECRET-7', requester: customer.userId });
    const assigned = await ops.update(agent, 'ticket', ticket.id, { assignee: assignee.userId }, ticket.version);
    await ops.transition(agent, 'ticket', ticket.id, 'resolve', { version: assigned.version });
    await dispatchOutbox(ctx, { mailer }, soon());
    expect(await sendDueMail(ctx, mailer, ORIGIN, new Date(), soon())).toMatchObject({ sent: 2, failed: 0 });
    // A second run finds nothing left to send.
    expect(await sendDueMail(ctx, mailer, ORIGIN, new Date(), soon())).toMatchObject({ sent: 0 });

    const to = (who: Actor) => smtp.messages.filter((m) => m.recipients.includes(who.email));
    expect(smtp.messages.every((m) => m.recipients.length === 1 && m.mailFrom === 'desk@example.com')).toBe(true);
    // The agent who made the changes is told of none of them.
    expect(to(agent)).toHaveLength(0);
    expect(to(assignee)).toHaveLength(1);
    expect(to(customer)).toHaveLength(1);

    const toAssignee = readMail(to(assignee)[0]!.raw);
    expect(toAssignee.headers.get('subject')).toBe(`Ticket ${ticket.id} was assigned to you`);
    expect(toAssignee.text).toContain('TOPSECRET-7');
    const toCustomer = readMail(to(customer)[0]!.raw);
    expect(toCustomer.headers.get('subject')).toBe('Over the wire was resolved');
    expect(toCustomer.headers.get('list-unsubscribe')).toMatch(/^<https:\/\/desk\.example\.com\/unsubscribe\/[^>]+>$/);
    expect(toCustomer.text).toContain(`${ORIGIN}/tickets/${ticket.id}`);
    expect(to(customer)[0]!.raw).not.toContain('TOPSECRET');
    expect(to(customer)[0]!.raw).not.toContain('Otto');
  });
});
