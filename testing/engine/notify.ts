import type { AppSpec } from '@/engine/spec/types';
import { buildModel } from '@/engine/spec/build';

/**
 * A small desk for the notification tests: tickets with a requester (a customer, who may not read
 * `secret` nor `assignee`), an assignee, replies, a reminder before `dueAt`, and agents who may watch.
 */
export const deskSpec: AppSpec = {
  name: 'desk',
  entities: {
    ticket: {
      titleField: 'subject',
      fields: {
        subject: { type: 'text', required: true },
        secret: { type: 'text' },
        requester: { type: 'user', default: 'actor' },
        assignee: { type: 'user', roles: ['agent'] },
        dueAt: { type: 'datetime' },
      },
    },
    reply: {
      fields: {
        ticket: { type: 'reference', to: 'ticket', required: true },
        body: { type: 'text', required: true },
        internal: { type: 'boolean', default: false },
      },
    },
  },
  workflows: {
    ticket: {
      states: { open: { initial: true }, resolved: { final: true } },
      transitions: { resolve: { from: 'open', to: 'resolved', allow: ['agent'] } },
    },
  },
  roles: { agent: {}, customer: {} },
  permissions: {
    ticket: {
      agent: { list: true, read: true, create: true, update: true },
      customer: {
        list: { own: 'requester' },
        read: { own: 'requester' },
        create: { own: 'requester' },
        hiddenFields: ['secret', 'assignee'],
      },
    },
    reply: {
      agent: { list: true, read: true, create: true },
      customer: { list: { via: 'ticket' }, read: { via: 'ticket' } },
    },
  },
  watch: { ticket: ['agent'] },
  notifications: {
    ticketAssigned: {
      label: 'A ticket is assigned to you',
      entity: 'ticket',
      on: { update: ['assignee'] },
      to: ['assignee'],
      title: 'Ticket {id} was assigned to you',
      text: '{subject}: {secret}',
    },
    ticketResolved: {
      label: 'Your ticket was resolved',
      entity: 'ticket',
      on: { transition: 'resolve' },
      to: ['requester', 'watchers'],
      title: '{title} was resolved',
      text: 'Secret: {secret}. Assignee: {assignee}.',
    },
    replied: {
      label: 'An agent replied',
      entity: 'reply',
      on: { create: true },
      when: { field: 'internal', op: 'eq', value: false },
      to: ['ticket.requester', 'ticket.watchers'],
      title: 'Reply on {ticket.subject}',
      text: '{body} ({ticket.secret})',
    },
    dueSoon: {
      label: 'A ticket is due within the hour',
      entity: 'ticket',
      on: { before: 'dueAt', hours: 1 },
      when: { field: 'state', op: 'eq', value: 'open' },
      to: ['assignee'],
      title: '{subject} is due soon',
    },
  },
};

export const deskModel = buildModel(deskSpec);
