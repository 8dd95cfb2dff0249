import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

function specWith(webhooks: unknown): AppSpec {
  return {
    name: 'desk',
    entities: {
      ticket: { titleField: 'subject', fields: { subject: { type: 'text', required: true }, notes: { type: 'text' } } },
    },
    workflows: {
      ticket: {
        states: { open: { initial: true }, resolved: { final: true } },
        transitions: { resolve: { from: 'open', to: 'resolved', allow: ['agent'] } },
      },
    },
    roles: { agent: { label: 'Agent' } },
    permissions: { ticket: { agent: { list: true, read: true, create: true, update: true } } },
    webhooks,
  } as AppSpec;
}

const good = {
  url: { env: 'CRM_WEBHOOK_URL' },
  secret: { env: 'CRM_WEBHOOK_SECRET' },
  events: ['ticket.created', 'ticket.updated', 'ticket.deleted', 'ticket.resolve'],
  role: 'agent',
};

const messages = (webhooks: unknown) => validateSpec(specWith(webhooks)).map((i) => `${i.path}: ${i.message}`);

describe('webhooks in the spec', () => {
  it('accepts a webhook and builds each event once', () => {
    expect(messages({ crm: good })).toEqual([]);
    const model = buildModel(specWith({ crm: good, audit: { ...good, url: 'https://audit.example/hook', events: ['ticket.resolve'] } }));
    expect(model.webhooks.map((w) => w.name)).toEqual(['crm', 'audit']);
    expect(model.webhooks[0]!.events).toEqual([
      { type: 'ticket.created', entity: 'ticket', kind: 'create' },
      { type: 'ticket.updated', entity: 'ticket', kind: 'update' },
      { type: 'ticket.deleted', entity: 'ticket', kind: 'delete' },
      { type: 'ticket.resolve', entity: 'ticket', kind: 'transition', transition: 'resolve' },
    ]);
    expect(model.webhooks[1]!.url).toEqual({ value: 'https://audit.example/hook' });
    expect(model.webhooks[0]!.secretEnv).toBe('CRM_WEBHOOK_SECRET');
  });

  it('refuses a literal secret', () => {
    expect(messages({ crm: { ...good, secret: 'whsec_abc' } })).toEqual([
      "webhooks.crm.secret: a secret written in the spec is refused (the spec is source code): put it in an environment variable and write { env: 'NAME' }",
    ]);
  });

  it('names unknown entities, transitions and roles', () => {
    expect(
      messages({
        crm: { ...good, events: ['invoice.created', 'ticket.reopen', 'ticket', 'ticket.created', 'ticket.created'], role: 'boss' },
      }),
    ).toEqual([
      'webhooks.crm.events[0]: "invoice.created": unknown entity "invoice" (entities: ticket)',
      'webhooks.crm.events[1]: "ticket.reopen": ticket has no event "reopen" (created, updated, deleted or a transition of its workflow: created, updated, deleted, resolve)',
      'webhooks.crm.events[2]: "ticket" is not an event: write <entity>.created, .updated, .deleted or .<transition>, e.g. "ticket.created"',
      'webhooks.crm.events[4]: "ticket.created" is listed twice',
      'webhooks.crm.role: unknown role "boss" (roles: agent, admin, public)',
    ]);
  });

  it('refuses a bad URL, a bad variable name and missing keys', () => {
    expect(messages({ crm: { ...good, url: 'ftp://x.example/hook' } })).toEqual([
      'webhooks.crm.url: must be an http:// or https:// address, or { env: \'NAME\' }, got "ftp://x.example/hook"',
    ]);
    expect(messages({ crm: { ...good, url: { env: 'lower-case' } } })).toEqual([
      'webhooks.crm.url.env: must be an environment variable\'s name (upper-case letters, digits and _), got "lower-case"',
    ]);
    expect(messages({ crm: { events: [], colour: 'red' } })).toEqual([
      'webhooks.crm.colour: unknown key in a webhook; expected one of url, secret, events, role, description',
      "webhooks.crm.url: is required: an https:// address, or { env: 'NAME' } for the variable that holds it",
      "webhooks.crm.secret: is required: { env: 'NAME' }, the environment variable holding the whsec_… secret",
      'webhooks.crm.events: lists no event: the webhook would never be told anything',
      "webhooks.crm.role: is required: the role whose access the payload's record is read with, e.g. 'agent'",
    ]);
    expect(messages({ 'Bad Name': good })).toEqual([
      'webhooks["Bad Name"]: a webhook\'s name must start with a lower-case letter, then letters, digits and dashes, e.g. "crm"',
    ]);
  });

  it('is printed in point 7 of /spec', () => {
    const markdown = describeMarkdown(buildModel(specWith({ crm: good })));
    const point7 = markdown.slice(markdown.indexOf('## 7.'), markdown.indexOf('## 8.'));
    expect(point7).toContain('### Webhooks');
    expect(point7).toContain(
      '| `crm` | the address in `CRM_WEBHOOK_URL` | `ticket.created`, `ticket.updated`, `ticket.deleted`, `ticket.resolve` | agent | in `CRM_WEBHOOK_SECRET` |',
    );
    expect(point7).toContain('5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts, about a day)');
    expect(point7).toContain('`/admin/webhooks`');
  });
});
