import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import type { Actor } from '@/engine/ground/actor';
import { parseRecordInput } from '@/engine/rules/record-input';
import { buildModel } from '@/engine/spec/build';
import { defineApp } from '@/engine/spec/define';
import { knownFields } from '../known-names';
import { fieldMessage, formChecks, ruleFields, ruleVerdicts, shownError } from './validation';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket!;
const fieldsOf = (...names: string[]) => knownFields(ticket, names);
const agentChecks = formChecks(model, ticket, fieldsOf('subject', 'description', 'priority', 'organization', 'assignee', 'dueAt'));
const now = new Date('2030-06-15T12:00:00Z');
const actor: Actor = { userId: 1, email: 'a@example.com', name: 'A', roles: ['admin'] };

/** The server's message for one field's raw input, through the engine's own parsing of a form. */
function serverMessage(field: string, raw: string): string | null {
  try {
    parseRecordInput(model, ticket, { [field]: raw }, 'update', actor);
    return null;
  } catch (error) {
    if (!(error instanceof NinefoldError)) throw error;
    return error.fieldErrors.find((e) => e.field === field)?.message ?? null;
  }
}

describe('field checks in the browser', () => {
  it('say what the server says, word for word', () => {
    const cases: [string, string][] = [
      ['subject', 'ab'],
      ['subject', ''],
      ['subject', 'x'.repeat(201)],
      ['subject', 'A fine subject'],
      ['priority', 'immediately'],
      ['priority', 'high'],
      ['dueAt', '2030-02-30T10:00'],
      ['dueAt', '2030-02-28T10:00'],
      ['assignee', 'nobody'],
      ['assignee', '12'],
    ];
    for (const [name, raw] of cases) {
      expect(fieldMessage(ticket.fieldsByName[name]!, raw), `${name} ${JSON.stringify(raw)}`).toBe(serverMessage(name, raw));
    }
    expect(fieldMessage(ticket.fieldsByName.subject!, 'ab')).toBe('Subject must be at least 3 characters.');
  });

  it("use the spec's own words for a field when it has them, as the server does", () => {
    const spec = defineApp({
      name: 'worded',
      entities: {
        part: {
          fields: {
            code: {
              type: 'text',
              required: true,
              minLength: 4,
              messages: { too_small: 'A part code has four characters or more.', required: 'Every part needs a code.' },
            },
          },
        },
      },
    });
    const worded = buildModel(spec);
    const part = worded.entitiesByName.part!;
    for (const raw of ['ab', '']) {
      let server: string | undefined;
      try {
        parseRecordInput(worded, part, { code: raw }, 'create', actor);
      } catch (error) {
        server = (error as NinefoldError).fieldErrors[0]?.message;
      }
      expect(fieldMessage(part.fieldsByName.code!, raw)).toBe(server);
    }
    expect(fieldMessage(part.fieldsByName.code!, 'ab')).toBe('A part code has four characters or more.');
  });

  it("use the spec's own words for a number out of its range, as the server does", () => {
    const worded = buildModel(
      defineApp({
        name: 'ranged',
        entities: {
          review: {
            fields: {
              stars: { type: 'integer', min: 1, max: 5, messages: { too_small: 'One star at least.', too_big: 'Five stars at most.' } },
              price: { type: 'decimal', min: 0, messages: { too_small: 'A price cannot be negative.' } },
            },
          },
        },
      }),
    );
    const review = worded.entitiesByName.review!;
    for (const [name, raw, message] of [
      ['stars', '0', 'One star at least.'],
      ['stars', '6', 'Five stars at most.'],
      ['price', '-1', 'A price cannot be negative.'],
    ] as const) {
      let server: { code: string; message: string } | undefined;
      try {
        parseRecordInput(worded, review, { [name]: raw }, 'create', actor);
      } catch (error) {
        server = (error as NinefoldError).fieldErrors[0];
      }
      expect(server).toMatchObject({ field: name, message });
      expect(fieldMessage(review.fieldsByName[name]!, raw)).toBe(message);
    }
  });

  it('resolve the constants a field refers to, and send only those', () => {
    const spec = defineApp({
      name: 'limits',
      entities: { order: { fields: { quantity: { type: 'integer', max: { $constant: 'maxQuantity' } }, note: { type: 'text' } } } },
      constants: { maxQuantity: { value: 5 }, secretThreshold: { value: 99 } },
    });
    const limits = buildModel(spec);
    const order = limits.entitiesByName.order!;
    const checks = formChecks(limits, order, order.fields);
    expect(checks.constants).toEqual({ maxQuantity: { value: 5 } });
    expect(fieldMessage(order.fieldsByName.quantity!, '6')).toBe('Quantity must be at most 5.');
    expect(fieldMessage(order.fieldsByName.quantity!, '5')).toBeNull();
  });
});

describe('rule checks in the browser', () => {
  it('keep only the rules whose fields the form shows', () => {
    expect(Object.keys(agentChecks.rules)).toEqual(['urgentNeedsAssignee']);
    // dueAfterCreation reads createdAt, which no form shows; a customer's form has no assignee.
    expect(ruleFields(ticket.rules.dueAfterCreation!).sort()).toEqual(['createdAt', 'dueAt']);
    expect(formChecks(model, ticket, fieldsOf('subject', 'description')).rules).toEqual({});
  });

  it('judge a rule once one of its fields was left, with the message next to its field', () => {
    const raw = { subject: 'Printer', priority: 'urgent', assignee: '', organization: '', description: '', dueAt: '' };
    expect(ruleVerdicts(agentChecks, raw, new Set(['subject']), now)).toEqual({});
    expect(ruleVerdicts(agentChecks, raw, new Set(['priority']), now)).toEqual({ assignee: 'An urgent ticket needs an assignee.' });
    expect(ruleVerdicts(agentChecks, { ...raw, assignee: '3' }, new Set(['priority']), now)).toEqual({ assignee: null });
    expect(ruleVerdicts(agentChecks, { ...raw, priority: 'low' }, new Set(['priority']), now)).toEqual({ assignee: null });
    // A field that does not parse shows its own message; the rule waits.
    expect(ruleVerdicts(agentChecks, { ...raw, assignee: 'x' }, new Set(['priority']), now)).toEqual({});
  });
});

describe('the error shown next to a field', () => {
  const rule = ['An urgent ticket needs an assignee.'];
  it("is the browser's when it has one, else the server's", () => {
    expect(shownError({ server: undefined, field: 'Too short.', rule: undefined, ruleMessages: [] })).toBe('Too short.');
    expect(shownError({ server: 'Taken.', field: undefined, rule: undefined, ruleMessages: [] })).toBe('Taken.');
    // Checked since, and fine: the server's message went with the value it was about.
    expect(shownError({ server: 'Too short.', field: null, rule: undefined, ruleMessages: [] })).toBeUndefined();
    expect(shownError({ server: undefined, field: null, rule: rule[0], ruleMessages: rule })).toBe(rule[0]);
  });

  it("clears a server's rule message only when that rule now holds", () => {
    expect(shownError({ server: rule[0], field: undefined, rule: null, ruleMessages: rule })).toBeUndefined();
    expect(shownError({ server: 'No user #9.', field: undefined, rule: null, ruleMessages: rule })).toBe('No user #9.');
  });
});

describe('date ranges in the browser', () => {
  const spec = defineApp({
    name: 'ranges',
    entities: {
      trip: {
        fields: {
          name: { type: 'text', required: true },
          startsAt: { type: 'datetime', after: { now: true } },
          endsAt: { type: 'datetime', after: { field: 'startsAt' }, rangeMessage: 'The trip must end after it starts.' },
        },
      },
    },
  });
  const ranges = buildModel(spec);
  const trip = ranges.entitiesByName.trip!;
  const touched = new Set(['startsAt', 'endsAt']);

  it('are the record rules the server checks, with their messages', () => {
    const checks = formChecks(ranges, trip, trip.fields);
    expect(ruleVerdicts(checks, { name: 'Rome', startsAt: '2030-06-01T10:00', endsAt: '2030-05-01T10:00' }, touched, now)).toEqual({
      startsAt: 'Starts at must be after now.',
      endsAt: 'The trip must end after it starts.',
    });
    expect(ruleVerdicts(checks, { name: 'Rome', startsAt: '2030-07-01T10:00', endsAt: '2030-07-02T10:00' }, touched, now)).toEqual({
      startsAt: null,
      endsAt: null,
    });
  });

  it('relative to now, hold an edit form only to a changed value, as the server does', () => {
    const stored = { name: 'Rome', startsAt: '2030-06-01T10:00', endsAt: '2030-06-02T10:00' };
    const checks = formChecks(ranges, trip, trip.fields, stored);
    // The start has passed since it was set: left as it was, it is fine; moved, it must be in the future.
    expect(ruleVerdicts(checks, stored, touched, now)).toEqual({ startsAt: null, endsAt: null });
    expect(ruleVerdicts(checks, { ...stored, startsAt: '2030-06-01T11:00' }, touched, now).startsAt).toBe('Starts at must be after now.');
  });
});
