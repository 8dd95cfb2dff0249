import { constant, defineApp, NinefoldError } from 'ninefold';

const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

/** What a ticket or a reply may carry: screenshots, PDFs and plain-text logs. */
const ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain'];

/** A customer support helpdesk: the default spec Ninefold serves. */
export default defineApp({
  name: 'helpdesk',

  purpose: {
    title: 'Helpdesk',
    summary: 'Customers open tickets; agents answer, track and resolve them within the agreed service levels.',
    audience: ['Support agents who work the ticket queue', 'Customers who ask for help', 'Administrators who run the desk'],
    // What a customer is told the desk is for: their side of it, in their words.
    roles: {
      customer: {
        summary: 'Ask us for help here: open a ticket, follow where it stands and answer our questions. We reply to every one.',
      },
    },
  },

  screens: {
    navigation: ['ticket', 'organization', 'comment'],
    lists: {
      ticket: {
        columns: [
          'id',
          'subject',
          'state',
          'priority',
          'slaDueAt',
          'requester',
          'assignee',
          'organization',
          'replyCount',
          'dueAt',
          'updatedAt',
        ],
        sort: '-updatedAt',
        filters: ['state', 'priority', 'slaDueAt', 'organization', 'assignee'],
        // A customer's portal: their tickets and where each stands, not the desk's queue, clock or tools.
        roles: {
          customer: {
            columns: ['id', 'subject', 'state', 'updatedAt', 'replyCount'],
            filters: ['state'],
            bulk: false,
            import: false,
          },
        },
      },
      organization: { columns: ['name', 'domain', 'tier'], sort: 'name' },
      comment: { columns: ['ticket', 'body', 'internal', 'createdAt'], sort: '-createdAt' },
    },
    // What needs attention: where the tickets stand, the viewer's own queue, the SLA breaches
    // and the flow of the last 30 days. Every number counts only what the viewer may list.
    home: {
      widgets: [
        // A customer's own tickets still in hand, the latest news first.
        {
          kind: 'list',
          entity: 'ticket',
          title: 'My tickets',
          where: {
            all: [
              { field: 'requester', op: 'eq', value: { actor: true } },
              { field: 'state', op: 'in', value: ['new', 'open', 'pending'] },
            ],
          },
          sort: '-updatedAt',
          columns: ['subject', 'state', 'updatedAt'],
          roles: ['customer'],
        },
        { kind: 'counts', entity: 'ticket', by: 'state', title: 'Tickets by state' },
        { kind: 'counts', entity: 'ticket', by: 'priority', title: 'Tickets by priority', roles: ['agent', 'admin'] },
        {
          kind: 'list',
          entity: 'ticket',
          title: 'Needs my action',
          roles: ['agent', 'admin'],
          where: {
            all: [
              { field: 'assignee', op: 'eq', value: { actor: true } },
              { field: 'state', op: 'in', value: ['open', 'pending'] },
            ],
          },
          sort: 'slaDueAt',
          columns: ['subject', 'state', 'priority', 'slaDueAt'],
        },
        {
          kind: 'list',
          entity: 'ticket',
          title: 'Overdue',
          roles: ['agent', 'admin'],
          where: {
            all: [
              { field: 'slaDueAt', op: 'lt', value: { now: true } },
              { field: 'state', op: 'notIn', value: ['resolved', 'closed'] },
            ],
          },
          sort: 'slaDueAt',
          columns: ['subject', 'state', 'priority', 'slaDueAt'],
        },
        {
          kind: 'chart',
          entity: 'ticket',
          title: 'Created and resolved per day',
          roles: ['agent', 'admin'],
          days: 30,
          series: [
            { field: 'createdAt', label: 'Created' },
            { field: 'resolvedAt', label: 'Resolved' },
          ],
        },
      ],
    },
    details: {
      // The conversation is the reply: the requester's reply on a pending ticket takes "reply", and
      // on a resolved one "reopen" (within the reopen window), so it rises in the queue again;
      // an agent may wait for the customer or resolve with theirs.
      ticket: {
        related: {
          comment: { thread: true, badges: ['internal'], transitions: { requester: ['reply', 'reopen'] }, replyWith: ['wait', 'resolve'] },
        },
      },
    },
    // Where an agent works from: their own tickets still to answer, the SLA's oldest due first.
    routes: {
      queue: {
        path: '/queue',
        title: 'My queue',
        description: 'Tickets assigned to you that are open or pending, the oldest due first.',
        roles: ['agent', 'admin'],
        navigation: true,
        show: {
          list: 'ticket',
          where: {
            all: [
              { field: 'assignee', op: 'eq', value: { actor: true } },
              { field: 'state', op: 'in', value: ['open', 'pending'] },
            ],
          },
          sort: 'slaDueAt',
          columns: ['id', 'subject', 'state', 'priority', 'slaDueAt', 'requester', 'organization'],
        },
      },
      organizationOpen: {
        path: '/organizations/{id}/open',
        title: 'Open tickets of an organization',
        params: { id: 'integer' },
        roles: ['agent', 'admin'],
        show: {
          list: 'ticket',
          where: {
            all: [
              { field: 'organization', op: 'eq', value: { param: 'id' } },
              { field: 'state', op: 'notIn', value: ['resolved', 'closed'] },
            ],
          },
          sort: 'slaDueAt',
        },
      },
    },
    labels: { 'ticket.new': 'Open a ticket' },
  },

  entities: {
    organization: {
      label: 'Organization',
      description: 'A customer company.',
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, unique: true, minLength: 2, maxLength: 120, searchable: true },
        domain: { type: 'text', format: 'hostname', maxLength: 253, help: 'e.g. example.com' },
        tier: { type: 'enum', values: ['standard', 'premium'], default: 'standard', required: true },
      },
    },
    ticket: {
      label: 'Ticket',
      description: 'A request for help.',
      titleField: 'subject',
      fields: {
        subject: { type: 'text', required: true, minLength: 3, maxLength: 200, searchable: true },
        description: { type: 'markdown', maxLength: 20000, searchable: true },
        priority: {
          type: 'enum',
          values: ['low', 'normal', 'high', 'urgent'],
          labels: { low: 'Low', normal: 'Normal', high: 'High', urgent: 'Urgent' },
          // Only what needs attention stands out; low and normal read as plain text.
          colours: { high: 'orange', urgent: 'red' },
          default: 'normal',
          required: true,
        },
        organization: { type: 'reference', to: 'organization', onDelete: 'setNull' },
        // A ticket is a customer's: a customer files their own, and an agent filing one for a caller names them.
        requester: { type: 'user', roles: ['customer'], default: 'actor', required: true },
        // Tickets are worked by staff: the picker offers agents and administrators only.
        assignee: { type: 'user', roles: ['agent', 'admin'] },
        dueAt: { type: 'datetime', label: 'Due' },
        resolvedAt: { type: 'datetime', label: 'Resolved', readOnly: true },
        slaDueAt: {
          type: 'datetime',
          label: 'SLA due',
          help: 'Counted from creation by the hours the SLA promises for the priority.',
          due: {
            from: 'createdAt',
            hours: constant('slaHours'),
            by: 'priority',
            doneWhen: { field: 'state', op: 'in', value: ['resolved', 'closed'] },
          },
        },
        // The conversation's length as its customer sees it: internal notes do not count, so the
        // number tells a customer (who reads every non-internal comment) nothing they cannot see.
        replyCount: {
          type: 'integer',
          label: 'Replies',
          derived: { count: 'comment', where: { field: 'internal', op: 'eq', value: false } },
        },
        attachments: {
          type: 'files',
          maxItems: constant('maxAttachments'),
          maxBytes: constant('maxAttachmentBytes'),
          accept: ATTACHMENT_TYPES,
          help: 'Screenshots, PDFs or logs.',
        },
      },
      limits: {
        openTicketsPerCustomer: {
          max: constant('maxOpenTicketsPerCustomer'),
          per: 'requester',
          where: { field: 'state', op: 'in', value: ['new', 'open', 'pending'] },
          message: 'You have reached the limit of open tickets ({max}): add to one you already have, or wait until one is resolved.',
          exempt: ['agent', 'admin'],
        },
      },
    },
    comment: {
      label: 'Comment',
      description: 'A message on a ticket; internal ones are for agents only.',
      titleField: 'body',
      fields: {
        ticket: { type: 'reference', to: 'ticket', required: true, onDelete: 'cascade' },
        body: { type: 'markdown', required: true, maxLength: 10000, searchable: true },
        internal: { type: 'boolean', default: false, help: 'Visible to agents only' },
        attachments: {
          type: 'files',
          maxItems: constant('maxAttachments'),
          maxBytes: constant('maxAttachmentBytes'),
          accept: ATTACHMENT_TYPES,
          help: 'Screenshots, PDFs or logs.',
        },
      },
    },
  },

  workflows: {
    ticket: {
      finalError: 'TICKET_CLOSED',
      states: {
        new: { label: 'New', initial: true },
        open: { label: 'Open' },
        pending: {
          label: 'Pending',
          description: 'Waiting for the customer.',
          roles: { customer: { label: 'Waiting for your reply', description: 'We answered you: reply below and we take it up again.' } },
        },
        resolved: { label: 'Resolved' },
        closed: { label: 'Closed', final: true },
      },
      transitions: {
        start: { label: 'Start', from: 'new', to: 'open', allow: ['agent', 'admin'], requires: ['assignee'] },
        wait: { label: 'Wait for customer', from: 'open', to: 'pending', allow: ['agent', 'admin'] },
        reply: { label: 'Reply', from: 'pending', to: 'open', allow: [{ owner: 'requester' }, 'agent', 'admin'] },
        resolve: {
          label: 'Resolve',
          from: ['open', 'pending'],
          to: 'resolved',
          allow: ['agent', 'admin'],
          effects: [{ set: 'resolvedAt', to: 'now' }],
        },
        reopen: {
          label: 'Reopen',
          from: 'resolved',
          to: 'open',
          allow: [
            {
              owner: 'requester',
              when: { field: 'resolvedAt', op: 'gte', value: { daysAgo: constant('reopenWindowDays') } },
              error: 'REOPEN_WINDOW_PASSED',
            },
            'agent',
            'admin',
          ],
          effects: [{ set: 'resolvedAt', to: null }],
        },
        // Closed by hand, or by itself once the requester can no longer reopen it.
        close: {
          label: 'Close',
          from: 'resolved',
          to: 'closed',
          allow: ['agent', 'admin'],
          auto: { after: 'resolvedAt', days: constant('autoCloseDays') },
        },
      },
    },
  },

  rules: {
    ticket: {
      urgentNeedsAssignee: {
        message: 'An urgent ticket needs an assignee.',
        field: 'assignee',
        when: { field: 'priority', op: 'eq', value: 'urgent' },
        assert: { field: 'assignee', op: 'present' },
      },
      dueAfterCreation: {
        message: 'The due time must be in the future.',
        field: 'dueAt',
        when: { field: 'dueAt', op: 'present' },
        assert: { field: 'dueAt', op: 'gt', value: { field: 'createdAt' } },
      },
    },
  },

  // Who people are beyond their roles: the company a customer works for.
  users: {
    fields: {
      organization: {
        type: 'reference',
        to: 'organization',
        help: 'The company a customer belongs to: they see every ticket its people open.',
      },
    },
  },

  roles: {
    admin: { label: 'Administrator', description: 'Runs the desk: users, organizations, everything.' },
    agent: { label: 'Agent', description: 'Works the ticket queue.' },
    customer: { label: 'Customer', description: "Opens tickets, follows their own and their organization's." },
  },

  // Deny by default: whatever is not granted here is refused, through every door.
  permissions: {
    ticket: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      agent: { list: true, read: true, create: true, update: true },
      // Customers see their own tickets and those of the people of their organization; they change only their own.
      customer: {
        list: {
          where: {
            any: [
              { field: 'requester', op: 'eq', value: { actor: 'id' } },
              { field: 'requester.organization', op: 'eq', value: { actor: 'organization' } },
            ],
          },
        },
        read: {
          where: {
            any: [
              { field: 'requester', op: 'eq', value: { actor: 'id' } },
              { field: 'requester.organization', op: 'eq', value: { actor: 'organization' } },
            ],
          },
        },
        create: { own: 'requester' },
        update: { own: 'requester', where: { field: 'state', op: 'in', value: ['new', 'open', 'pending'] } },
        hiddenFields: ['organization', 'assignee'],
        writableFields: ['subject', 'description', 'attachments'],
      },
    },
    organization: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      agent: { list: true, read: true },
    },
    comment: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      agent: { list: true, read: true, create: true, update: true },
      customer: {
        list: { via: 'ticket', where: { field: 'internal', op: 'eq', value: false } },
        read: { via: 'ticket', where: { field: 'internal', op: 'eq', value: false } },
        // Replies only on their own tickets (they read their organization's).
        create: {
          via: 'ticket',
          where: {
            all: [
              { field: 'internal', op: 'eq', value: false },
              { field: 'ticket.requester', op: 'eq', value: { actor: 'id' } },
            ],
          },
        },
        hiddenFields: ['internal'],
      },
    },
  },

  // Who is told what: each user chooses per kind and channel on /account.
  notifications: {
    ticketAssigned: {
      label: 'A ticket is assigned to you',
      entity: 'ticket',
      // Also a ticket opened with an assignee.
      on: { update: ['assignee'] },
      to: ['assignee'],
      title: 'Ticket #{id} was assigned to you',
      text: '{subject} (priority {priority}, SLA due {slaDueAt}).',
    },
    ticketReplied: {
      label: 'A reply on your ticket, one you work or one you watch',
      entity: 'comment',
      on: { create: true },
      // Internal notes are for agents: the requester is never told of one. The assignee is told
      // too: a customer's reply that cannot reopen a ticket (its reopen window passed) is still seen.
      when: { field: 'internal', op: 'eq', value: false },
      to: ['ticket.requester', 'ticket.assignee', 'ticket.watchers'],
      title: 'New reply on "{ticket.subject}"',
      text: '{body}',
    },
    ticketResolved: {
      label: 'Your ticket was resolved',
      entity: 'ticket',
      on: { transition: 'resolve' },
      to: ['requester', 'watchers'],
      title: '"{subject}" was resolved',
      text: 'Reopen it within the reopen window if the problem is not solved.',
    },
    slaDueSoon: {
      label: 'A ticket of yours is due within the hour',
      entity: 'ticket',
      on: { before: 'slaDueAt', hours: 1 },
      when: { field: 'state', op: 'in', value: ['open', 'pending'] },
      to: ['assignee'],
      title: 'Ticket #{id} is due within the hour',
      text: '{subject}: SLA due {slaDueAt}.',
    },
  },
  // Staff may follow a ticket they do not work: they are told of its replies and its resolution.
  watch: { ticket: ['agent', 'admin'] },

  calls: {
    escalate: {
      method: 'POST',
      path: '/tickets/{id}/escalate',
      summary: "Raise a ticket's priority one step and record why",
      params: { id: 'integer' },
      input: { reason: { type: 'text', required: true, minLength: 3, maxLength: 500 } },
      output: 'ticket',
      roles: ['agent', 'admin'],
      errors: ['NOT_FOUND', 'STALE_VERSION', 'TICKET_CLOSED', 'VALIDATION_FAILED'],
      handler: async ({ params, input, ops }) => {
        const id = Number(params.id);
        const { record: ticket } = await ops.get('ticket', id);
        if (ticket.state === 'closed') throw new NinefoldError('TICKET_CLOSED');
        const from = String(ticket.priority);
        const step = PRIORITIES.indexOf(from as (typeof PRIORITIES)[number]);
        if (step === PRIORITIES.length - 1) {
          throw new NinefoldError('VALIDATION_FAILED', 'This ticket is already urgent.', {
            fieldErrors: [{ field: 'priority', code: 'already_urgent', message: 'This ticket is already urgent.' }],
          });
        }
        const to = PRIORITIES[step + 1];
        // The version read above: a change made meanwhile is a 409, not silently overwritten.
        const escalated = await ops.update('ticket', id, { priority: to }, ticket.version);
        await ops.create('comment', { ticket: id, body: `Escalated from ${from} to ${to}: ${String(input.reason)}`, internal: true });
        return escalated;
      },
    },
  },

  errors: {
    TICKET_CLOSED: {
      status: 409,
      title: 'Ticket closed',
      message: 'This ticket is closed and can no longer be changed.',
    },
    REOPEN_WINDOW_PASSED: {
      status: 409,
      title: 'Reopen window passed',
      message: 'This ticket was resolved too long ago to be reopened; please open a new one.',
    },
  },

  constants: {
    maxOpenTicketsPerCustomer: {
      value: 20,
      unit: 'tickets',
      description: 'Open tickets (new, open or pending) one customer may have at once.',
    },
    maxAttachmentBytes: { value: 10_000_000, unit: 'bytes', description: 'The largest file a ticket or a reply may carry.' },
    maxAttachments: { value: 5, unit: 'files', description: 'How many files one ticket or reply may carry.' },
    reopenWindowDays: { value: 14, unit: 'days', description: 'How long after resolution the requester may reopen a ticket.' },
    autoCloseDays: {
      value: 14,
      unit: 'days',
      description: 'How long after resolution a resolved ticket closes by itself (when its requester can no longer reopen it).',
    },
    slaHours: {
      value: { urgent: 4, high: 8, normal: 24, low: 72 },
      unit: 'hours',
      description: 'Time to resolution promised for each priority.',
    },
  },
});
