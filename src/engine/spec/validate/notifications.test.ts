import { describe, expect, it } from 'vitest';
import { deskModel, deskSpec } from '@testing/engine/notify';
import { validateSpec } from '../validate';
import { describeMarkdown } from '../describe';
import type { AppSpec } from '../types';

const withNotification = (notification: unknown, extra: Partial<AppSpec> = {}): AppSpec =>
  ({ ...deskSpec, ...extra, notifications: { bad: notification } }) as unknown as AppSpec;

const messages = (spec: AppSpec) => validateSpec(spec).map((issue) => `${issue.path}: ${issue.message}`);

describe('notifications at load', () => {
  it('accepts the desk', () => {
    expect(validateSpec(deskSpec)).toEqual([]);
  });

  it.each([
    [{ entity: 'nope', on: { create: true }, to: ['assignee'], title: 'x' }, 'notifications.bad.entity: unknown entity "nope"'],
    [{ entity: 'ticket', on: { update: ['colour'] }, to: ['assignee'], title: 'x' }, 'unknown field "colour" of ticket'],
    [{ entity: 'ticket', on: { transition: 'reopen' }, to: ['assignee'], title: 'x' }, 'unknown transition "reopen" of ticket'],
    [
      { entity: 'ticket', on: { before: 'subject', hours: 1 }, to: ['assignee'], title: 'x' },
      '"subject" is not a date or datetime of ticket',
    ],
    [{ entity: 'ticket', on: { create: true, transition: 'resolve' }, to: ['assignee'], title: 'x' }, 'needs exactly one of'],
    [
      { entity: 'ticket', on: { create: true }, to: ['subject'], title: 'x' },
      '"subject" is a "text" field, not a user or users field of ticket',
    ],
    [{ entity: 'reply', on: { create: true }, to: ['ticket.subject'], title: 'x' }, '"subject" is not a user or users field of ticket'],
    [{ entity: 'ticket', on: { create: true }, to: [{ role: 'ghost' }], title: 'x' }, 'unknown role "ghost"'],
    [{ entity: 'ticket', on: { create: true }, to: ['assignee'], title: 'About {colour}' }, 'unknown placeholder {colour}'],
    [{ entity: 'reply', on: { create: true }, to: ['ticket.requester'], title: '{ticket.colour}' }, 'unknown placeholder {ticket.colour}'],
    [{ entity: 'ticket', on: { create: true }, to: ['assignee'], title: 'x', channels: ['pigeon'] }, 'unknown channel "pigeon"'],
    [{ entity: 'ticket', on: { create: true }, to: ['assignee'], title: 'x', when: { field: 'colour', op: 'eq', value: 1 } }, 'colour'],
  ])('refuses %j with a clear message', (notification, expected) => {
    expect(messages(withNotification(notification)).join('\n')).toContain(expected);
  });

  it('refuses watchers where watch does not allow them, and unknown roles in watch', () => {
    const spec = withNotification(
      { entity: 'reply', on: { create: true }, to: ['watchers'], title: 'x' },
      { watch: { ticket: ['ghost'] } },
    );
    const found = messages(spec).join('\n');
    expect(found).toContain('"watchers" needs watch.reply');
    expect(found).toContain('watch.ticket: unknown role "ghost"');
  });
});

describe('notifications in /spec', () => {
  it('says when, who and what, and what a recipient may not read reads', () => {
    const text = describeMarkdown(deskModel);
    expect(text).toContain('## 7. The calls');
    expect(text).toContain(
      'A ticket is assigned to you (`ticketAssigned`): when `assignee` of a ticket changes (or is set when it is created), the user(s) in `assignee` read `Ticket {id} was assigned to you` and `{subject}: {secret}` in the app and by e-mail.',
    );
    expect(text).toContain('the user(s) in `ticket.requester`, the watchers of its `ticket` read');
    expect(text).toContain('1 hour before dueAt of a ticket (once per record and value of `dueAt`, and not once `dueAt` has passed), if');
    expect(text).toContain('one-click unsubscribe link (`/unsubscribe/<token>`');
    expect(text).toContain('reads "(hidden)"');
  });
});
