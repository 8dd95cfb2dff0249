import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import seed from '../../../examples/seed/ninefold.spec';
import crm from '../../../examples/crm/ninefold.spec';
import { buildModel } from './build';
import { SpecError } from './spec-error';
import type { AppSpec } from './types';
import { validateSpec } from './validate';

/** The helpdesk plus one custom call, so that every section of a spec is present. */
const BASE: AppSpec = {
  ...helpdesk,
  calls: {
    escalate: {
      method: 'POST',
      path: '/tickets/{id}/escalate',
      params: { id: 'integer' },
      input: { reason: { type: 'text', required: true, maxLength: 500 } },
      output: 'ticket',
      roles: ['agent', 'admin'],
      errors: ['TICKET_CLOSED', 'NOT_FOUND'],
      handler: async () => ({}),
    },
  },
};

type Changes = Readonly<Record<string, unknown>>;
const REMOVE = Symbol('remove');

/** A copy of the base spec with values replaced at dotted paths (REMOVE deletes the key). */
function specWith(changes: Changes): AppSpec {
  const copy = clone(BASE) as Record<string, unknown>;
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.');
    let target = copy;
    for (const key of keys.slice(0, -1)) {
      target[key] ??= {};
      target = target[key] as Record<string, unknown>;
    }
    const last = keys[keys.length - 1]!;
    if (value === REMOVE) delete target[last];
    else target[last] = value;
  }
  return copy as unknown as AppSpec;
}

function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)]));
  }
  return value;
}

interface Case {
  readonly kind: string;
  readonly changes: Changes;
  readonly path: string;
  readonly message: string;
  /** The change also (rightly) causes other issues. */
  readonly more?: boolean;
}

const text = { type: 'text' };

const CASES: readonly Case[] = [
  // the spec itself
  { kind: 'name format', changes: { name: 'Help Desk' }, path: 'name', message: 'must be lower-case letters, digits and dashes' },
  { kind: 'name missing', changes: { name: REMOVE }, path: 'name', message: 'is required' },
  {
    kind: 'unknown top-level key',
    changes: { entites: {} },
    path: 'entites',
    message: 'unknown key in the spec (did you mean "entities"?)',
  },
  { kind: 'purpose title empty', changes: { 'purpose.title': ' ' }, path: 'purpose.title', message: 'must be a non-empty string' },
  {
    kind: 'purpose time zone unknown',
    changes: { 'purpose.timeZone': 'Europe/Pariss' },
    path: 'purpose.timeZone',
    message: 'must be an IANA time zone such as "Europe/Paris", "America/New_York" or "UTC", got "Europe/Pariss"',
  },
  {
    kind: 'purpose time zone not a string',
    changes: { 'purpose.timeZone': 1 },
    path: 'purpose.timeZone',
    message: 'must be an IANA time zone',
  },

  // point 3: entities and fields
  {
    kind: 'entity name not an identifier',
    changes: { 'entities.Bad_name': { fields: { name: text } } },
    path: 'entities.Bad_name',
    message: 'entity names are identifiers',
  },
  {
    kind: 'entity name reserved',
    changes: { 'entities.nfAudit': { fields: { name: text } } },
    path: 'entities.nfAudit',
    message: 'reserved: tables prefixed "nf_" belong to the engine',
  },
  {
    kind: 'unknown entity key',
    changes: { 'entities.ticket.titelField': 'subject' },
    path: 'entities.ticket.titelField',
    message: 'did you mean "titleField"?',
  },
  {
    kind: 'entity without fields',
    changes: { 'entities.tag': { label: 'Tag' } },
    path: 'entities.tag.fields',
    message: 'an entity needs fields',
  },
  {
    kind: 'plural not a URL segment',
    changes: { 'entities.ticket.plural': 'Tickets' },
    path: 'entities.ticket.plural',
    message: 'a plural is a URL segment',
  },
  { kind: 'plural reserved', changes: { 'entities.ticket.plural': 'spec' }, path: 'entities.ticket.plural', message: '"spec" is reserved' },
  {
    kind: 'plural reserved for the admin pages',
    changes: { 'entities.ticket.plural': 'admin' },
    path: 'entities.ticket.plural',
    message: '"admin" is reserved',
  },
  {
    kind: 'plural reserved for the account page',
    changes: { 'entities.ticket.plural': 'account' },
    path: 'entities.ticket.plural',
    message: '"account" is reserved',
  },
  {
    kind: 'plural reserved for invitations',
    changes: { 'entities.ticket.plural': 'invite' },
    path: 'entities.ticket.plural',
    message: '"invite" is reserved',
  },
  {
    kind: 'plural reserved for the files of the API',
    changes: { 'entities.ticket.plural': 'files' },
    path: 'entities.ticket.plural',
    message: '"files" is reserved: the application serves /api/v1/files itself',
  },
  {
    kind: 'plural reserved for saved views',
    changes: { 'entities.ticket.plural': 'views' },
    path: 'entities.ticket.plural',
    message: '"views" is reserved',
  },
  {
    kind: 'same plural',
    changes: { 'entities.organization.plural': 'tickets' },
    path: 'entities.ticket',
    message: 'plural "tickets" is also the plural of entity "organization"',
  },
  {
    kind: 'same table',
    changes: { 'entities.fooBar': { fields: { name: text } }, 'entities.fooBAR': { plural: 'foo-bar-items', fields: { name: text } } },
    path: 'entities.fooBAR',
    message: 'table "foo_bar" is also the table of entity "fooBar"',
  },
  {
    kind: 'field name not an identifier',
    changes: { 'entities.ticket.fields.due-at': text },
    path: 'entities.ticket.fields.due-at',
    message: 'field names are identifiers',
  },
  {
    kind: 'field name reserved',
    changes: { 'entities.ticket.fields.createdAt': text },
    path: 'entities.ticket.fields.createdAt',
    message: '"createdAt" is reserved',
    more: true,
  },
  {
    kind: 'field named like the state',
    changes: { 'entities.ticket.fields.state': text },
    path: 'entities.ticket.fields.state',
    message: '"state" is the workflow state field of ticket',
  },
  {
    kind: 'same column twice',
    changes: { 'entities.ticket.fields.dueAT': { type: 'datetime' } },
    path: 'entities.ticket.fields.dueAT',
    message: 'column "due_at" is also the column of field "dueAt"',
  },
  {
    kind: 'column of a system column',
    changes: { 'entities.ticket.fields.createdAT': text },
    path: 'entities.ticket.fields.createdAT',
    message: 'column "created_at" is reserved',
  },
  {
    kind: 'unknown field type',
    changes: { 'entities.ticket.fields.x': { type: 'texty' } },
    path: 'entities.ticket.fields.x.type',
    message: 'unknown field type "texty" (expected one of text, markdown, integer,',
  },
  {
    kind: 'missing field type',
    changes: { 'entities.ticket.fields.x': {} },
    path: 'entities.ticket.fields.x.type',
    message: 'missing field type',
  },
  {
    kind: 'field key typo',
    changes: { 'entities.ticket.fields.subject.maxLenght': 3 },
    path: 'entities.ticket.fields.subject.maxLenght',
    message: 'did you mean "maxLength"?',
  },
  {
    kind: 'key of another field type',
    changes: { 'entities.ticket.fields.dueAt.maxLength': 3 },
    path: 'entities.ticket.fields.dueAt.maxLength',
    message: 'unknown key in a datetime field',
  },
  {
    kind: 'required is not a boolean',
    changes: { 'entities.ticket.fields.subject.required': 'yes' },
    path: 'entities.ticket.fields.subject.required',
    message: 'must be true or false',
  },
  {
    kind: 'reference to an unknown entity',
    changes: { 'entities.ticket.fields.assignee': { type: 'reference', to: 'agent' } },
    path: 'entities.ticket.fields.assignee.to',
    message: 'unknown entity "agent"',
    more: true,
  },
  {
    kind: 'unknown onDelete',
    changes: { 'entities.ticket.fields.organization.onDelete': 'nullify' },
    path: 'entities.ticket.fields.organization.onDelete',
    message: 'unknown onDelete "nullify"',
  },
  {
    kind: 'required reference set null',
    changes: { 'entities.ticket.fields.organization.required': true },
    path: 'entities.ticket.fields.organization.onDelete',
    message: 'a required reference cannot be set to null',
  },
  {
    kind: 'enum without values',
    changes: { 'entities.ticket.fields.priority.values': [] },
    path: 'entities.ticket.fields.priority.values',
    message: 'an enum needs a non-empty list of values',
    more: true,
  },
  {
    kind: 'enum duplicate value',
    changes: { 'entities.ticket.fields.priority.values': ['low', 'normal', 'high', 'urgent', 'low'] },
    path: 'entities.ticket.fields.priority.values[4]',
    message: 'duplicate value "low"',
  },
  {
    kind: 'enum default not a value',
    changes: { 'entities.ticket.fields.priority.default': 'medium' },
    path: 'entities.ticket.fields.priority.default',
    message: '"medium" is not one of the values (low, normal, high, urgent)',
  },
  {
    kind: 'enum label of no value',
    changes: { 'entities.ticket.fields.priority.labels': { hi: 'High' } },
    path: 'entities.ticket.fields.priority.labels.hi',
    message: '"hi" is not one of the values',
  },
  {
    kind: 'enum colour of no value',
    changes: { 'entities.ticket.fields.priority.colours': { critical: 'red' } },
    path: 'entities.ticket.fields.priority.colours.critical',
    message: '"critical" is not one of the values (low, normal, high, urgent)',
  },
  {
    kind: 'enum colour outside the palette',
    changes: { 'entities.ticket.fields.priority.colours': { urgent: 'crimson' } },
    path: 'entities.ticket.fields.priority.colours.urgent',
    message: 'unknown colour "crimson" (expected one of gray, red, orange, yellow, green, blue, purple)',
  },
  {
    kind: 'enum colours not a record',
    changes: { 'entities.ticket.fields.priority.colours': ['red'] },
    path: 'entities.ticket.fields.priority.colours',
    message: 'colours',
  },
  {
    kind: 'enum colours spelt the American way',
    changes: { 'entities.ticket.fields.priority.colors': { urgent: 'red' } },
    path: 'entities.ticket.fields.priority.colors',
    message: 'did you mean "colours"?',
  },
  {
    kind: 'minLength above maxLength',
    changes: { 'entities.ticket.fields.subject.minLength': 300 },
    path: 'entities.ticket.fields.subject.minLength',
    message: 'minLength 300 is greater than maxLength 200',
  },
  {
    kind: 'negative length',
    changes: { 'entities.ticket.fields.subject.minLength': -1 },
    path: 'entities.ticket.fields.subject.minLength',
    message: 'must not be negative',
  },
  {
    kind: 'min above max',
    changes: { 'entities.ticket.fields.hours': { type: 'integer', min: 10, max: 1 } },
    path: 'entities.ticket.fields.hours.min',
    message: 'min 10 is greater than max 1',
  },
  {
    kind: 'min from a constant that is not a number',
    changes: { 'entities.ticket.fields.hours': { type: 'integer', max: { $constant: 'slaHours' } } },
    path: 'entities.ticket.fields.hours.max',
    message: 'must be an integer or { $constant }, got an object (constant "slaHours")',
  },
  {
    kind: 'decimal scale above precision',
    changes: { 'entities.ticket.fields.cost': { type: 'decimal', precision: 4, scale: 6 } },
    path: 'entities.ticket.fields.cost.scale',
    message: 'scale 6 is greater than precision 4',
  },
  {
    kind: 'decimal precision out of range',
    changes: { 'entities.ticket.fields.cost': { type: 'decimal', precision: 0 } },
    path: 'entities.ticket.fields.cost.precision',
    message: 'must be an integer from 1 to 1000',
  },
  {
    kind: 'decimal default not a string',
    changes: { 'entities.ticket.fields.cost': { type: 'decimal', default: 12.5 } },
    path: 'entities.ticket.fields.cost.default',
    message: 'must be a decimal number written as a string',
  },
  {
    kind: 'decimal default too precise',
    changes: { 'entities.ticket.fields.cost': { type: 'decimal', default: '1.234' } },
    path: 'entities.ticket.fields.cost.default',
    message: '1.234 does not fit decimal(12, 2)',
  },
  {
    kind: 'text default not a string',
    changes: { 'entities.ticket.fields.subject.default': 5 },
    path: 'entities.ticket.fields.subject.default',
    message: 'must be a string, got 5',
  },
  {
    kind: 'text default too long',
    changes: { 'entities.organization.fields.domain.default': 'x'.repeat(254) },
    path: 'entities.organization.fields.domain.default',
    message: 'is longer than maxLength 253',
  },
  {
    kind: 'integer default not an integer',
    changes: { 'entities.ticket.fields.hours': { type: 'integer', default: 1.5 } },
    path: 'entities.ticket.fields.hours.default',
    message: 'must be an integer',
  },
  {
    kind: 'boolean default',
    changes: { 'entities.comment.fields.internal.default': 'no' },
    path: 'entities.comment.fields.internal.default',
    message: 'must be true or false',
  },
  {
    kind: 'date default',
    changes: { 'entities.ticket.fields.day': { type: 'date', default: '2024-02-30' } },
    path: 'entities.ticket.fields.day.default',
    message: 'must be a date written YYYY-MM-DD',
  },
  {
    kind: 'datetime default',
    changes: { 'entities.ticket.fields.dueAt.default': 'tomorrow' },
    path: 'entities.ticket.fields.dueAt.default',
    message: 'must be "now"',
  },
  {
    kind: 'user default',
    changes: { 'entities.ticket.fields.assignee.default': 'admin' },
    path: 'entities.ticket.fields.assignee.default',
    message: 'must be "actor"',
  },
  {
    kind: 'user roles unknown',
    changes: { 'entities.ticket.fields.assignee.roles': ['agent', 'boss'] },
    path: 'entities.ticket.fields.assignee.roles[1]',
    message: 'unknown role "boss" (roles: admin, agent, customer)',
  },
  {
    kind: 'user roles empty',
    changes: { 'entities.ticket.fields.assignee.roles': [] },
    path: 'entities.ticket.fields.assignee.roles',
    message: 'must be a non-empty list of role names',
  },
  {
    kind: 'user roles not a list',
    changes: { 'entities.ticket.fields.assignee.roles': 'agent' },
    path: 'entities.ticket.fields.assignee.roles',
    message: 'must be a non-empty list of role names',
  },
  {
    kind: 'roles on a text field',
    changes: { 'entities.ticket.fields.subject.roles': ['agent'] },
    path: 'entities.ticket.fields.subject.roles',
    message: 'unknown key',
  },
  {
    kind: 'invalid pattern',
    changes: { 'entities.ticket.fields.subject.pattern': '([a-z' },
    path: 'entities.ticket.fields.subject.pattern',
    message: 'is not a valid regular expression',
  },
  {
    kind: 'patternMessage alone',
    changes: { 'entities.ticket.fields.subject.patternMessage': 'Letters only' },
    path: 'entities.ticket.fields.subject.patternMessage',
    message: 'has no pattern',
  },
  {
    kind: 'unknown text format',
    changes: { 'entities.organization.fields.domain.format': 'ipv4' },
    path: 'entities.organization.fields.domain.format',
    message: 'unknown format "ipv4"',
  },
  {
    kind: 'searchable boolean',
    changes: { 'entities.comment.fields.internal.searchable': true },
    path: 'entities.comment.fields.internal.searchable',
    message: 'a boolean field cannot be searchable',
  },
  {
    kind: 'read-only required without default',
    changes: { 'entities.ticket.fields.resolvedAt.required': true },
    path: 'entities.ticket.fields.resolvedAt.readOnly',
    message: 'needs a default',
    more: true,
  },
  {
    kind: 'titleField unknown',
    changes: { 'entities.ticket.titleField': 'title' },
    path: 'entities.ticket.titleField',
    message: 'unknown field "title"',
  },
  {
    kind: 'titleField that comes back to its own entity',
    changes: {
      'entities.organization.fields.parent': { type: 'reference', to: 'organization' },
      'entities.organization.titleField': 'parent',
    },
    path: 'entities.organization.titleField',
    message:
      "titles organization → organization: a title that refers to a record is that record's title, and this one comes back to organization",
  },
  {
    kind: 'uniqueTogether unknown field',
    changes: { 'entities.ticket.uniqueTogether': [['subject', 'org']] },
    path: 'entities.ticket.uniqueTogether[0][1]',
    message: 'unknown field "org" of ticket',
  },
  {
    kind: 'limit per neither a user nor a reference field',
    changes: { 'entities.ticket.limits.openTicketsPerCustomer.per': 'subject' },
    path: 'entities.ticket.limits.openTicketsPerCustomer.per',
    message: '"subject" is not a user or reference field of ticket (user and reference fields: requester, assignee, organization)',
  },
  {
    kind: 'limit max negative',
    changes: { 'entities.ticket.limits.openTicketsPerCustomer.max': -1 },
    path: 'entities.ticket.limits.openTicketsPerCustomer.max',
    message: 'must not be negative',
  },
  {
    kind: 'limit where unknown state',
    changes: { 'entities.ticket.limits.openTicketsPerCustomer.where': { field: 'state', op: 'in', value: ['new', 'opne'] } },
    path: 'entities.ticket.limits.openTicketsPerCustomer.where.value[1]',
    message: '"opne" is not a state of ticket (expected one of new, open, pending, resolved, closed)',
  },

  // point 2: screens
  {
    kind: 'navigation unknown entity',
    changes: { 'screens.navigation': ['ticket', 'tikcet'] },
    path: 'screens.navigation[1]',
    message: 'unknown entity "tikcet"',
  },
  {
    kind: 'navigation duplicate',
    changes: { 'screens.navigation': ['ticket', 'comment', 'ticket'] },
    path: 'screens.navigation[2]',
    message: 'duplicate entity "ticket"',
  },
  {
    kind: 'list of unknown entity',
    changes: { 'screens.lists.agent': { columns: ['name'] } },
    path: 'screens.lists.agent',
    message: 'unknown entity "agent"',
  },
  {
    kind: 'list column unknown',
    changes: { 'screens.lists.ticket.columns': ['subject', 'status'] },
    path: 'screens.lists.ticket.columns[1]',
    message: 'unknown column "status" of ticket',
  },
  {
    kind: 'list filter unknown',
    changes: { 'screens.lists.ticket.filters': ['prio'] },
    path: 'screens.lists.ticket.filters[0]',
    message: 'unknown column "prio"',
  },
  {
    kind: 'list sort unknown',
    changes: { 'screens.lists.ticket.sort': '-updated' },
    path: 'screens.lists.ticket.sort',
    message: 'unknown column "updated" of ticket',
  },
  {
    kind: 'pageSize too large',
    changes: { 'screens.lists.ticket.pageSize': 501 },
    path: 'screens.lists.ticket.pageSize',
    message: 'must be an integer from 1 to 500',
  },
  {
    kind: 'details of unknown entity',
    changes: { 'screens.details.tikcet': { related: {} } },
    path: 'screens.details.tikcet',
    message: 'unknown entity "tikcet"',
  },
  {
    kind: 'related unknown entity',
    changes: { 'screens.details.ticket.related': { coment: {} } },
    path: 'screens.details.ticket.related.coment',
    message: 'unknown entity "coment"',
  },
  {
    kind: 'related without a reference',
    changes: { 'screens.details.comment.related': { organization: {} } },
    path: 'screens.details.comment.related.organization',
    message: 'organization has no reference field to comment',
  },
  {
    kind: 'related via ambiguous',
    changes: {
      'entities.comment.fields.replyTo': { type: 'reference', to: 'ticket' },
      'screens.details.ticket.related': { comment: {} },
      // The ticket's reply count names its reference, so that only the related section is ambiguous.
      'entities.ticket.fields.replyCount.derived.via': 'ticket',
    },
    path: 'screens.details.ticket.related.comment',
    message: 'several references to ticket (ticket, replyTo): name one with "via"',
  },
  {
    kind: 'related via not a reference',
    changes: { 'screens.details.ticket.related': { comment: { via: 'body' } } },
    path: 'screens.details.ticket.related.comment.via',
    message: '"body" is not a reference field of comment to ticket',
  },
  {
    kind: 'related unknown column',
    changes: { 'screens.details.ticket.related': { comment: { columns: ['body', 'author'] } } },
    path: 'screens.details.ticket.related.comment.columns[1]',
    message: 'unknown column "author" of comment',
  },
  {
    kind: 'related unknown sort',
    changes: { 'screens.details.ticket.related': { comment: { sort: '-posted' } } },
    path: 'screens.details.ticket.related.comment.sort',
    message: 'unknown column "posted" of comment',
  },
  {
    kind: 'related badge not boolean',
    changes: { 'screens.details.ticket.related': { comment: { thread: true, badges: ['body'] } } },
    path: 'screens.details.ticket.related.comment.badges[0]',
    message: '"body" is not a boolean field of comment',
  },
  {
    kind: 'related transitions key neither user field nor role',
    changes: { 'screens.details.ticket.related': { comment: { thread: true, transitions: { customerr: 'reply' } } } },
    path: 'screens.details.ticket.related.comment.transitions.customerr',
    message: '"customerr" is neither a user field of ticket (requester, assignee) nor a role',
  },
  {
    kind: 'related transitions unknown transition',
    changes: { 'screens.details.ticket.related': { comment: { thread: true, transitions: { requester: 'answer' } } } },
    path: 'screens.details.ticket.related.comment.transitions.requester',
    message: 'unknown transition "answer" of ticket',
  },
  {
    kind: 'related transitions list with an unknown transition',
    changes: { 'screens.details.ticket.related': { comment: { thread: true, transitions: { requester: ['reply', 'reopn'] } } } },
    path: 'screens.details.ticket.related.comment.transitions.requester[1]',
    message: 'unknown transition "reopn" of ticket',
  },
  {
    kind: 'related transitions empty list',
    changes: { 'screens.details.ticket.related': { comment: { thread: true, transitions: { requester: [] } } } },
    path: 'screens.details.ticket.related.comment.transitions.requester',
    message: 'must name at least one transition',
  },
  {
    kind: 'related replyWith unknown transition',
    changes: { 'screens.details.ticket.related': { comment: { thread: true, replyWith: ['wait', 'park'] } } },
    path: 'screens.details.ticket.related.comment.replyWith[1]',
    message: 'unknown transition "park" of ticket',
  },
  {
    kind: 'related replyWith without a thread',
    changes: { 'screens.details.ticket.related': { comment: { replyWith: ['wait'] } } },
    path: 'screens.details.ticket.related.comment.replyWith',
    message: 'only a thread has a reply box',
  },
  {
    kind: 'related reply transition without workflow',
    changes: { 'screens.details.organization.related': { ticket: { transitions: { agent: 'start' } } } },
    path: 'screens.details.organization.related.ticket.transitions.agent',
    message: 'organization has no workflow',
  },
  {
    kind: 'related thread without text',
    changes: {
      'entities.note': { fields: { ticket: { type: 'reference', to: 'ticket' }, done: { type: 'boolean' } } },
      'screens.details.ticket.related': { note: { thread: true } },
    },
    path: 'screens.details.ticket.related.note.thread',
    message: 'note has no markdown or text field',
  },
  {
    kind: 'related unknown key',
    changes: { 'screens.details.ticket.related': { comment: { threaded: true } } },
    path: 'screens.details.ticket.related.comment.threaded',
    message: 'unknown key in a related section (did you mean "thread"?)',
  },
  {
    kind: 'workflow finalError unknown',
    changes: { 'workflows.ticket.finalError': 'TICKET_SHUT' },
    path: 'workflows.ticket.finalError',
    message: 'unknown error code "TICKET_SHUT"',
  },
  {
    kind: 'transition out of a final state',
    changes: { 'workflows.ticket.transitions.reopen.from': 'closed' },
    path: 'workflows.ticket.transitions.reopen.from',
    message: '"closed" is a final state: no transition may leave it',
  },
  {
    kind: 'pageSize zero',
    changes: { 'screens.lists.ticket.pageSize': 0 },
    path: 'screens.lists.ticket.pageSize',
    message: 'must be an integer from 1 to 500, got 0',
  },
  {
    kind: 'home widget unknown entity',
    changes: { 'screens.home.widgets': [{ kind: 'counts', entity: 'tikcet', by: 'state' }] },
    path: 'screens.home.widgets[0].entity',
    message: 'unknown entity "tikcet"',
  },
  {
    kind: 'home widget unknown kind',
    changes: { 'screens.home.widgets': [{ kind: 'pie', entity: 'ticket' }] },
    path: 'screens.home.widgets[0].kind',
    message: 'unknown widget kind "pie"',
  },
  {
    kind: 'home counts by a text field',
    changes: { 'screens.home.widgets': [{ kind: 'counts', entity: 'ticket', by: 'subject' }] },
    path: 'screens.home.widgets[0].by',
    message: '"subject" is a text field; counts are split by',
  },
  {
    kind: 'home counts by unknown field',
    changes: { 'screens.home.widgets': [{ kind: 'counts', entity: 'ticket', by: 'prio' }] },
    path: 'screens.home.widgets[0].by',
    message: 'unknown field "prio" of ticket',
  },
  {
    kind: 'home widget for an unknown role',
    changes: { 'screens.home.widgets': [{ kind: 'counts', entity: 'ticket', by: 'state', roles: ['agent', 'editor'] }] },
    path: 'screens.home.widgets[0].roles[1]',
    message: 'unknown role "editor" (roles: admin, agent, customer)',
  },
  {
    kind: 'home widget for visitors',
    changes: { 'screens.home.widgets': [{ kind: 'counts', entity: 'ticket', by: 'state', roles: ['public'] }] },
    path: 'screens.home.widgets[0].roles[0]',
    message: 'they cannot open the home, which is for signed-in users',
  },
  {
    kind: 'home widget for no role',
    changes: { 'screens.home.widgets': [{ kind: 'counts', entity: 'ticket', by: 'state', roles: [] }] },
    path: 'screens.home.widgets[0].roles',
    message: 'no one would be shown this widget',
  },
  {
    kind: 'home widget roles not a list',
    changes: { 'screens.home.widgets': [{ kind: 'chart', entity: 'ticket', series: [{ field: 'createdAt' }], roles: 'agent' }] },
    path: 'screens.home.widgets[0].roles',
    message: 'must be a list of names',
  },
  {
    kind: 'home widget role twice',
    changes: { 'screens.home.widgets': [{ kind: 'list', entity: 'ticket', title: 'Mine', roles: ['agent', 'agent'] }] },
    path: 'screens.home.widgets[0].roles[1]',
    message: 'duplicate role "agent"',
  },
  {
    kind: 'home sum not a number',
    changes: { 'screens.home.widgets': [{ kind: 'counts', entity: 'ticket', by: 'state', sum: 'priority' }] },
    path: 'screens.home.widgets[0].sum',
    message: 'only a number can be summed',
  },
  {
    kind: 'home chart series not a time',
    changes: { 'screens.home.widgets': [{ kind: 'chart', entity: 'ticket', series: [{ field: 'priority' }] }] },
    path: 'screens.home.widgets[0].series[0].field',
    message: 'a chart counts records per day of a datetime field',
  },
  {
    kind: 'home chart without series',
    changes: { 'screens.home.widgets': [{ kind: 'chart', entity: 'ticket', series: [] }] },
    path: 'screens.home.widgets[0].series',
    message: 'must be a non-empty list',
  },
  {
    kind: 'home chart days out of range',
    changes: { 'screens.home.widgets': [{ kind: 'chart', entity: 'ticket', days: 400, series: [{ field: 'createdAt' }] }] },
    path: 'screens.home.widgets[0].days',
    message: 'must be an integer from 1 to 366, got 400',
  },
  {
    kind: 'home list limit out of range',
    changes: { 'screens.home.widgets': [{ kind: 'list', entity: 'ticket', title: 'Mine', limit: 0 }] },
    path: 'screens.home.widgets[0].limit',
    message: 'must be an integer from 1 to 50, got 0',
  },
  {
    kind: 'home list without title',
    changes: { 'screens.home.widgets': [{ kind: 'list', entity: 'ticket' }] },
    path: 'screens.home.widgets[0].title',
    message: 'is required',
  },
  {
    kind: 'home list unknown column',
    changes: { 'screens.home.widgets': [{ kind: 'list', entity: 'ticket', title: 'Mine', columns: ['subject', 'owner'] }] },
    path: 'screens.home.widgets[0].columns[1]',
    message: 'unknown field "owner" of ticket',
  },
  {
    kind: 'home condition with a route parameter',
    changes: {
      'screens.home.widgets': [
        { kind: 'list', entity: 'ticket', title: 'Mine', where: { field: 'assignee', op: 'eq', value: { param: 'id' } } },
      ],
    },
    path: 'screens.home.widgets[0].where.value',
    message: '{ param } can only be used in a custom route',
  },
  {
    kind: 'home actor compared with a text field',
    changes: {
      'screens.home.widgets': [
        { kind: 'list', entity: 'ticket', title: 'Mine', where: { field: 'subject', op: 'eq', value: { actor: true } } },
      ],
    },
    path: 'screens.home.widgets[0].where.value',
    message: '{ actor: true } can only be compared with a user field',
  },
  {
    kind: 'home unknown key',
    changes: { 'screens.home.widget': [] },
    path: 'screens.home.widget',
    message: 'unknown key in the home (did you mean "widgets"?)',
    more: true,
  },

  // point 4: workflows
  {
    kind: 'workflow of unknown entity',
    changes: { 'workflows.agent': { states: { a: {} }, transitions: {} } },
    path: 'workflows.agent',
    message: 'unknown entity "agent"',
  },
  {
    kind: 'workflow without states',
    changes: { 'workflows.ticket.states': {} },
    path: 'workflows.ticket.states',
    message: 'a workflow needs at least one state',
    more: true,
  },
  {
    kind: 'two initial states',
    changes: { 'workflows.ticket.states.open.initial': true },
    path: 'workflows.ticket.states.open.initial',
    message: 'only one state can be initial; "new" is already initial',
  },
  {
    kind: 'transition to unknown state',
    changes: { 'workflows.ticket.transitions.start.to': 'opened' },
    path: 'workflows.ticket.transitions.start.to',
    message: 'unknown state "opened"',
  },
  {
    kind: 'transition from unknown state',
    changes: { 'workflows.ticket.transitions.resolve.from': ['open', 'waiting'] },
    path: 'workflows.ticket.transitions.resolve.from[1]',
    message: 'unknown state "waiting"',
  },
  {
    kind: 'transition from a final state',
    changes: { 'workflows.ticket.transitions.undo': { from: 'closed', to: 'resolved', allow: ['admin'] } },
    path: 'workflows.ticket.transitions.undo.from',
    message: '"closed" is a final state',
  },
  {
    kind: 'allow unknown role',
    changes: { 'workflows.ticket.transitions.start.allow': ['agnet'] },
    path: 'workflows.ticket.transitions.start.allow[0]',
    message: 'unknown role "agnet" (roles: admin, agent, customer)',
  },
  {
    kind: 'allow empty',
    changes: { 'workflows.ticket.transitions.start.allow': [] },
    path: 'workflows.ticket.transitions.start.allow',
    message: 'needs a non-empty list',
  },
  {
    kind: 'owner not a user field',
    changes: { 'workflows.ticket.transitions.reply.allow': [{ owner: 'subject' }] },
    path: 'workflows.ticket.transitions.reply.allow[0].owner',
    message: '"subject" is not a user or users field of ticket',
  },
  {
    kind: 'owner when unknown field',
    changes: { 'workflows.ticket.transitions.reopen.allow': [{ owner: 'requester', when: { field: 'resolved', op: 'present' } }] },
    path: 'workflows.ticket.transitions.reopen.allow[0].when.field',
    message: 'unknown field "resolved" of ticket',
  },
  {
    kind: 'requires unknown field',
    changes: { 'workflows.ticket.transitions.start.requires': ['asignee'] },
    path: 'workflows.ticket.transitions.start.requires[0]',
    message: 'unknown field "asignee" of ticket',
  },
  {
    kind: 'guard with empty all',
    changes: { 'workflows.ticket.transitions.close.guard': { all: [] } },
    path: 'workflows.ticket.transitions.close.guard.all',
    message: 'must be a non-empty list of conditions',
  },
  {
    kind: 'effect on unknown field',
    changes: { 'workflows.ticket.transitions.resolve.effects': [{ set: 'closedAt', to: 'now' }] },
    path: 'workflows.ticket.transitions.resolve.effects[0].set',
    message: 'unknown field "closedAt" of ticket',
  },
  {
    kind: 'effect actor on a datetime',
    changes: { 'workflows.ticket.transitions.resolve.effects': [{ set: 'resolvedAt', to: 'actor' }] },
    path: 'workflows.ticket.transitions.resolve.effects[0].to',
    message: '"actor" is the signed-in user and only fits a user field',
  },
  {
    kind: 'effect now on a user',
    changes: { 'workflows.ticket.transitions.start.effects': [{ set: 'assignee', to: 'now' }] },
    path: 'workflows.ticket.transitions.start.effects[0].to',
    message: '"now" is the current time and only fits a datetime field',
  },
  {
    kind: 'effect clears a required field',
    changes: { 'workflows.ticket.transitions.start.effects': [{ set: 'requester', to: null }] },
    path: 'workflows.ticket.transitions.start.effects[0].to',
    message: 'cannot clear the required field "requester"',
  },
  {
    kind: 'effect enum value',
    changes: { 'workflows.ticket.transitions.start.effects': [{ set: 'priority', to: 'top' }] },
    path: 'workflows.ticket.transitions.start.effects[0].to',
    message: 'expected one of low, normal, high, urgent',
  },
  {
    kind: 'workflow field collides',
    changes: { 'workflows.ticket.field': 'priority' },
    path: 'workflows.ticket.field',
    message: '"priority" collides with the field "priority" of ticket',
    more: true,
  },

  // point 5: rules and conditions
  { kind: 'rules of unknown entity', changes: { 'rules.agent': {} }, path: 'rules.agent', message: 'unknown entity "agent"' },
  {
    kind: 'rule condition unknown field',
    changes: { 'rules.ticket.urgentNeedsAssignee.assert': { field: 'asignee', op: 'present' } },
    path: 'rules.ticket.urgentNeedsAssignee.assert.field',
    message: 'unknown field "asignee" of ticket',
  },
  {
    kind: 'rule condition enum value',
    changes: { 'rules.ticket.urgentNeedsAssignee.when': { field: 'priority', op: 'eq', value: 'urgnt' } },
    path: 'rules.ticket.urgentNeedsAssignee.when.value',
    message: '"urgnt" is not a value of ticket.priority',
  },
  {
    kind: 'rule condition unknown operator',
    changes: { 'rules.ticket.urgentNeedsAssignee.when': { field: 'priority', op: 'is', value: 'urgent' } },
    path: 'rules.ticket.urgentNeedsAssignee.when.op',
    message: 'unknown operator "is"',
  },
  {
    kind: 'rule condition value of the wrong type',
    changes: { 'rules.ticket.urgentNeedsAssignee.when': { not: { field: 'internal', op: 'eq', value: 'yes' } } },
    path: 'rules.ticket.urgentNeedsAssignee.when.not.field',
    message: 'unknown field "internal" of ticket',
  },
  {
    kind: 'nested condition unknown field',
    changes: {
      'rules.ticket.urgentNeedsAssignee.when': {
        any: [{ field: 'priority', op: 'eq', value: 'high' }, { not: { field: 'prio', op: 'present' } }],
      },
    },
    path: 'rules.ticket.urgentNeedsAssignee.when.any[1].not.field',
    message: 'unknown field "prio"',
  },
  {
    kind: 'present with a value',
    changes: { 'rules.ticket.urgentNeedsAssignee.assert': { field: 'assignee', op: 'present', value: 1 } },
    path: 'rules.ticket.urgentNeedsAssignee.assert.value',
    message: 'a "present" condition takes no value',
  },
  {
    kind: 'daysAgo on a text field',
    changes: { 'rules.ticket.urgentNeedsAssignee.assert': { field: 'subject', op: 'gt', value: { daysAgo: 3 } } },
    path: 'rules.ticket.urgentNeedsAssignee.assert.value',
    message: '{ daysAgo } can only be compared with a date or datetime field',
  },
  {
    kind: 'rule without assert',
    changes: { 'rules.ticket.urgentNeedsAssignee.assert': REMOVE },
    path: 'rules.ticket.urgentNeedsAssignee.assert',
    message: 'is required',
  },
  {
    kind: 'rule field unknown',
    changes: { 'rules.ticket.urgentNeedsAssignee.field': 'owner' },
    path: 'rules.ticket.urgentNeedsAssignee.field',
    message: 'unknown field "owner" of ticket',
  },
  {
    kind: 'undeclared constant anywhere',
    changes: {
      'rules.ticket.x': {
        message: 'Too old.',
        assert: { field: 'resolvedAt', op: 'gte', value: { daysAgo: { $constant: 'reopenWindow' } } },
      },
    },
    path: 'rules.ticket.x.assert.value.daysAgo',
    message: 'constant "reopenWindow" is not declared',
  },

  // point 6: roles and permissions
  {
    kind: 'role name not an identifier',
    changes: { 'roles.Super Admin': {} },
    path: 'roles["Super Admin"]',
    message: 'role names are identifiers',
  },
  {
    kind: 'permissions of unknown entity',
    changes: { 'permissions.agent': {} },
    path: 'permissions.agent',
    message: 'unknown entity "agent"',
  },
  {
    kind: 'permissions of unknown role',
    changes: { 'permissions.ticket.manager': { read: true } },
    path: 'permissions.ticket.manager',
    message: 'unknown role "manager"',
  },
  {
    kind: 'grant unknown key',
    changes: { 'permissions.ticket.agent.edit': true },
    path: 'permissions.ticket.agent.edit',
    message:
      'unknown key in a grant; expected one of list, read, create, update, delete, transitions, hiddenFields, readOnlyFields, writableFields',
  },
  {
    kind: 'grant unknown transition',
    changes: { 'permissions.ticket.agent.transitions': { escalate: true } },
    path: 'permissions.ticket.agent.transitions.escalate',
    message: 'unknown transition "escalate" of ticket',
  },
  {
    kind: 'grant transition without workflow',
    changes: { 'permissions.organization.agent.transitions': { start: true } },
    path: 'permissions.organization.agent.transitions.start',
    message: 'organization has no workflow',
  },
  {
    kind: 'grant field list unknown field',
    changes: { 'permissions.comment.customer.hiddenFields': ['internl'] },
    path: 'permissions.comment.customer.hiddenFields[0]',
    message: 'unknown field "internl" of comment (or createdBy, updatedBy)',
  },
  {
    kind: 'grant read-only list naming an author',
    changes: { 'permissions.comment.customer.readOnlyFields': ['createdBy'] },
    path: 'permissions.comment.customer.readOnlyFields[0]',
    message: 'unknown field "createdBy" of comment',
  },
  // A transition grant to a role its allow list does not name: once a way in by itself (a union), now it needs both.
  {
    kind: 'grant of a transition to a role allow does not name',
    changes: { 'permissions.ticket.customer.transitions': { resolve: { own: 'requester' } } },
    path: 'permissions.ticket.customer.transitions.resolve',
    message:
      'role "customer" is not in the allow list of ticket\'s transition "resolve", and a grant no longer lets a role take a transition by itself: allow says who may take it, the grant on which records (both must hold), so this grant lets "customer" take nothing. Add "customer" to workflows.ticket.transitions.resolve.allow, or remove this grant',
  },
  {
    kind: 'grant of a transition to a role allow names only as an owner',
    changes: {
      'permissions.ticket.agent.transitions': { reply: true },
      'workflows.ticket.transitions.reply.allow': [{ owner: 'requester' }],
    },
    path: 'permissions.ticket.agent.transitions.reply',
    message:
      '"agent" takes it only as the requester. Add "agent" to workflows.ticket.transitions.reply.allow, or say that it narrows what "agent" may take as the requester with own: \'requester\', or remove this grant',
  },
  {
    kind: 'grant field writable and read-only',
    changes: { 'permissions.ticket.customer.readOnlyFields': ['subject'] },
    path: 'permissions.ticket.customer.writableFields[0]',
    message: '"subject" is both writable and in readOnlyFields, so this role can never write it',
  },
  {
    kind: 'scope own not a user field',
    changes: { 'permissions.ticket.customer.read': { own: 'organization' } },
    path: 'permissions.ticket.customer.read.own',
    message: '"organization" is not a user or users field of ticket',
  },
  {
    kind: 'scope false',
    changes: { 'permissions.ticket.agent.delete': false },
    path: 'permissions.ticket.agent.delete',
    message: 'leave the action out to deny it',
  },
  {
    kind: 'scope where unknown field',
    changes: { 'permissions.comment.customer.list': { where: { field: 'internl', op: 'eq', value: false } } },
    path: 'permissions.comment.customer.list.where.field',
    message: 'unknown field "internl" of comment',
  },

  // point 7: calls
  { kind: 'call method', changes: { 'calls.escalate.method': 'FETCH' }, path: 'calls.escalate.method', message: 'unknown method "FETCH"' },
  {
    kind: 'call path without slash',
    changes: { 'calls.escalate.path': 'tickets/{id}/escalate' },
    path: 'calls.escalate.path',
    message: 'must start with "/"',
    more: true,
  },
  {
    kind: 'call path param not declared',
    changes: { 'calls.escalate.path': '/tickets/{ticketId}/escalate' },
    path: 'calls.escalate.path',
    message: 'parameter "{ticketId}" is not declared in params',
    more: true,
  },
  {
    kind: 'call param not in path',
    changes: { 'calls.escalate.params': { id: 'integer', level: 'integer' } },
    path: 'calls.escalate.params.level',
    message: 'parameter "level" does not appear in the path',
  },
  {
    kind: 'call param type',
    changes: { 'calls.escalate.params': { id: 'number' } },
    path: 'calls.escalate.params.id',
    message: 'unknown parameter type "number"',
  },
  {
    kind: 'call path of the generated API',
    changes: { 'calls.escalate.path': '/tickets/{id}' },
    path: 'calls.escalate.path',
    message: 'is served by the generated API',
  },
  {
    kind: 'call path of the sign-in API',
    changes: { 'calls.escalate.path': '/auth/me', 'calls.escalate.params': REMOVE },
    path: 'calls.escalate.path',
    message: 'is served by the generated API',
  },
  {
    kind: 'call unknown role',
    changes: { 'calls.escalate.roles': ['agent', 'boss'] },
    path: 'calls.escalate.roles[1]',
    message: 'unknown role "boss"',
  },
  {
    kind: 'call unknown error code',
    changes: { 'calls.escalate.errors': ['TICKET_CLOSED', 'TOO_LATE'] },
    path: 'calls.escalate.errors[1]',
    message: 'unknown error code "TOO_LATE"',
  },
  {
    kind: 'call handler',
    changes: { 'calls.escalate.handler': 'escalate' },
    path: 'calls.escalate.handler',
    message: 'must be a function',
  },
  {
    kind: 'call output unknown entity',
    changes: { 'calls.escalate.output': 'tickets' },
    path: 'calls.escalate.output',
    message: 'unknown entity "tickets"',
  },
  {
    kind: 'call input field type',
    changes: { 'calls.escalate.input.reason.type': 'string' },
    path: 'calls.escalate.input.reason.type',
    message: 'unknown field type "string"',
  },

  // point 8: errors
  {
    kind: 'error code case',
    changes: { 'errors.ticketGone': { status: 410, title: 'Gone', message: 'Gone.' } },
    path: 'errors.ticketGone',
    message: 'error codes are UPPER_SNAKE_CASE',
  },
  {
    kind: 'error code built in',
    changes: { 'errors.NOT_FOUND': { status: 404, title: 'Gone', message: 'Gone.' } },
    path: 'errors.NOT_FOUND',
    message: '"NOT_FOUND" is a built-in error code',
  },
  {
    kind: 'error status',
    changes: { 'errors.TICKET_CLOSED.status': 200 },
    path: 'errors.TICKET_CLOSED.status',
    message: 'an integer from 400 to 599, got 200',
  },
  {
    kind: 'error title empty',
    changes: { 'errors.TICKET_CLOSED.title': '' },
    path: 'errors.TICKET_CLOSED.title',
    message: 'must be a non-empty string',
  },
  {
    kind: 'error message missing',
    changes: { 'errors.TICKET_CLOSED.message': REMOVE },
    path: 'errors.TICKET_CLOSED.message',
    message: 'is required',
  },

  // point 9: constants
  {
    kind: 'constant without value',
    changes: { 'constants.slaHours.value': REMOVE },
    path: 'constants.slaHours.value',
    message: 'is required',
    more: true,
  },
  {
    kind: 'constant value shape',
    changes: { 'constants.slaHours.value': { urgent: '4h' } },
    path: 'constants.slaHours.value',
    message: 'must be a number, a string, a boolean or an object of numbers',
    more: true,
  },
  {
    kind: 'API limit constant out of range',
    changes: { 'constants.apiMaxPageSize': { value: 501 } },
    path: 'constants.apiMaxPageSize.value',
    message: '"apiMaxPageSize" sets an API limit: it must be a whole number from 1 to 500, got 501',
  },
  {
    kind: 'API limit constant not a number',
    changes: { 'constants.apiMaxBodyBytes': { value: '1 MiB' } },
    path: 'constants.apiMaxBodyBytes.value',
    message: 'sets an API limit',
  },
  {
    kind: 'API limit constant not whole',
    changes: { 'constants.apiRateLimitPerMinute': { value: 0.5 } },
    path: 'constants.apiRateLimitPerMinute.value',
    message: 'sets an API limit',
  },
  {
    kind: 'session timeout constant zero',
    changes: { 'constants.sessionIdleMinutes': { value: 0 } },
    path: 'constants.sessionIdleMinutes.value',
    message: '"sessionIdleMinutes" sets a session timeout: it must be a whole number from 1 to 527040, got 0',
  },
  {
    kind: 'session timeout constant too long',
    changes: { 'constants.sessionMaxDays': { value: 4000 } },
    path: 'constants.sessionMaxDays.value',
    message: 'sets a session timeout',
  },
  {
    kind: 'sign-in limit constant not whole',
    changes: { 'constants.signInAttemptsPerAccount': { value: 2.5 } },
    path: 'constants.signInAttemptsPerAccount.value',
    message: 'sets a sign-in limit',
  },
  {
    kind: 'sign-in limit constant not a number',
    changes: { 'constants.signInAttemptsPerIp': { value: 'fifty' } },
    path: 'constants.signInAttemptsPerIp.value',
    message: 'sets a sign-in limit',
  },
  {
    kind: 'constant used as a limit is not a number',
    changes: { 'constants.maxOpenTicketsPerCustomer.value': 'twenty' },
    path: 'entities.ticket.limits.openTicketsPerCustomer.max',
    message: 'got "twenty" (constant "maxOpenTicketsPerCustomer")',
  },
  {
    kind: 'field message of an unknown kind',
    changes: { 'entities.ticket.fields.subject.messages': { short: 'x' } },
    path: 'entities.ticket.fields.subject.messages.short',
    message: 'unknown key',
  },
  {
    kind: 'limit exempts an unknown role',
    changes: { 'entities.ticket.limits.openTicketsPerCustomer.exempt': ['agent', 'boss'] },
    path: 'entities.ticket.limits.openTicketsPerCustomer.exempt[1]',
    message: 'unknown role "boss"',
  },
];

describe('validateSpec', () => {
  it('finds no issue in the bundled specs', () => {
    expect(validateSpec(helpdesk)).toEqual([]);
    expect(validateSpec(seed)).toEqual([]);
    expect(validateSpec(crm)).toEqual([]);
    expect(validateSpec(BASE)).toEqual([]);
  });

  it.each(CASES)('reports $kind', ({ changes, path, message, more }) => {
    const issues = validateSpec(specWith(changes));
    const found = issues.find((i) => i.path === path && i.message.includes(message));
    expect(found, `expected ${path}: …${message}… in\n${issues.map((i) => `${i.path}: ${i.message}`).join('\n')}`).toBeDefined();
    if (!more) expect(issues).toHaveLength(1);
  });

  it('lets a title refer to a record titled by a field of its own (a comment named by its ticket)', () => {
    expect(validateSpec(specWith({ 'entities.comment.titleField': 'ticket' }))).toEqual([]);
  });

  it('reports a loop of titles at each entity in it, not at those that only lead into it', () => {
    const issues = validateSpec(
      specWith({
        'entities.organization.fields.lead': { type: 'reference', to: 'ticket' },
        'entities.organization.titleField': 'lead',
        'entities.ticket.titleField': 'organization',
        'entities.comment.titleField': 'ticket',
      }),
    );
    expect(issues.filter((i) => i.message.includes('comes back')).map((i) => i.path)).toEqual([
      'entities.organization.titleField',
      'entities.ticket.titleField',
    ]);
  });

  it('reports an unknown field type with the expected types', () => {
    const issues = validateSpec(specWith({ 'entities.ticket.fields.x': { type: 'texty' } }));
    expect(issues).toEqual([
      {
        path: 'entities.ticket.fields.x.type',
        message:
          'unknown field type "texty" (expected one of text, markdown, integer, decimal, money, boolean, enum, date, datetime, email, url, reference, references, user, users, file, files)',
      },
    ]);
  });

  it('reports every problem at once', () => {
    const issues = validateSpec(specWith({ name: 'Bad Name', 'workflows.ticket.transitions.start.to': 'opened', 'roles.Bad Role': {} }));
    expect(issues.map((i) => i.path)).toEqual(['name', 'workflows.ticket.transitions.start.to', 'roles["Bad Role"]']);
  });

  it('reads untrusted data without throwing', () => {
    for (const spec of [null, 42, 'helpdesk', [], { name: 'x', entities: [] }, { name: 'x', entities: { a: null } }]) {
      expect(() => validateSpec(spec as unknown as AppSpec)).not.toThrow();
      expect(validateSpec(spec as unknown as AppSpec).length).toBeGreaterThan(0);
    }
    expect(validateSpec(null as unknown as AppSpec)).toEqual([{ path: '(spec)', message: 'a spec must be an object, got null' }]);
  });

  it('makes buildModel throw a SpecError listing each issue as "path: message"', () => {
    const spec = specWith({ 'entities.ticket.fields.assignee': { type: 'reference', to: 'agent' } });
    expect(() => buildModel(spec)).toThrow(SpecError);
    expect(() => buildModel(spec)).toThrow('entities.ticket.fields.assignee.to: unknown entity "agent"');
  });

  it('fills in the time zone: the one the spec names, else UTC', () => {
    expect(buildModel(specWith({ 'purpose.timeZone': 'Europe/Paris' })).timeZone).toBe('Europe/Paris');
    expect(buildModel(specWith({ 'purpose.timeZone': REMOVE })).timeZone).toBe('UTC');
    expect(() => buildModel(specWith({ 'purpose.timeZone': 'Mars/Olympus' }))).toThrow('purpose.timeZone: must be an IANA time zone');
  });
});

describe('catalogue codes named by workflows', () => {
  const reopen = helpdesk.workflows.ticket.transitions.reopen;
  const withReopen = (changes: Record<string, unknown>): AppSpec => ({
    ...helpdesk,
    workflows: {
      ticket: {
        ...helpdesk.workflows.ticket,
        transitions: { ...helpdesk.workflows.ticket.transitions, reopen: { ...reopen, ...changes } },
      },
    },
  });

  it('accepts the helpdesk owner error and a known guard error', () => {
    expect(validateSpec(withReopen({ guard: { field: 'priority', op: 'ne', value: 'urgent' }, guardError: 'TICKET_CLOSED' }))).toEqual([]);
  });

  it('names an unknown guard error and an unknown owner error by their place', () => {
    const issues = validateSpec(
      withReopen({
        guardError: 'NO_SUCH_CODE',
        allow: [{ owner: 'requester', when: { field: 'resolvedAt', op: 'present' }, error: 'ALSO_UNKNOWN' }, 'agent'],
      }),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        {
          path: 'workflows.ticket.transitions.reopen.allow[0].error',
          message: 'unknown error code "ALSO_UNKNOWN" (not built in, not under errors)',
        },
        {
          path: 'workflows.ticket.transitions.reopen.guardError',
          message: 'unknown error code "NO_SUCH_CODE" (not built in, not under errors)',
        },
      ]),
    );
    expect(issues).toHaveLength(2);
  });
});
