import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from './build';
import { dueHours } from './due';
import type { AppSpec, DueSpec, FieldSpec } from './types';
import { validateSpec } from './validate';

const PATH = 'entities.ticket.fields.slaDueAt';
const SLA_DUE = helpdesk.entities!.ticket.fields.slaDueAt;

/** The helpdesk with the ticket's SLA due field replaced (its `due` merged with `due`). */
function withSlaDue(
  due: Record<string, unknown>,
  field: Record<string, unknown> = {},
  constants: AppSpec['constants'] = helpdesk.constants,
): AppSpec {
  const base = SLA_DUE as FieldSpec & { due: DueSpec };
  const slaDueAt = { ...base, ...field, due: { ...base.due, ...due } } as unknown as FieldSpec;
  const ticket = helpdesk.entities!.ticket;
  return { ...helpdesk, constants, entities: { ...helpdesk.entities, ticket: { ...ticket, fields: { ...ticket.fields, slaDueAt } } } };
}

function issuesOf(spec: AppSpec): string[] {
  return validateSpec(spec).map((i) => `${i.path}: ${i.message}`);
}

describe('due times in the spec', () => {
  it("the helpdesk's SLA due time is valid, read-only, with the constant's hours per priority", () => {
    const field = buildModel(helpdesk).entitiesByName.ticket!.fieldsByName.slaDueAt!;
    expect(field.readOnly).toBe(true);
    expect(field.due).toEqual({
      from: 'createdAt',
      hours: { urgent: 4, high: 8, normal: 24, low: 72 },
      by: 'priority',
      constant: 'slaHours',
      doneWhen: { field: 'state', op: 'in', value: ['resolved', 'closed'] },
    });
    expect(dueHours(field.due!, { priority: 'high' })).toBe(8);
    expect(dueHours(field.due!, { priority: null })).toBeNull();
  });

  it.each([
    [{ from: 'subject' }, `${PATH}.due.from: "subject" is not a datetime of ticket (datetimes: createdAt, updatedAt, dueAt, resolvedAt)`],
    [{ from: 'slaDueAt' }, `${PATH}.due.from: a due time cannot be counted from itself`],
    [{ by: 'subject' }, `${PATH}.due.by: "subject" is not an enum field of ticket (enum fields: priority)`],
    [
      { hours: 'soon', by: undefined },
      `${PATH}.due.hours: must be a number of hours or { $constant } naming a number or hours per value, got "soon"`,
    ],
    [{ hours: 4 }, `${PATH}.due.by: "by" picks hours from a map per value, but the hours are one number`],
    [
      { hours: { $constant: 'nope' } },
      `${PATH}.due.hours.$constant: unknown constant "nope" (constants: maxOpenTicketsPerCustomer, maxAttachmentBytes, maxAttachments, reopenWindowDays, autoCloseDays, slaHours)`,
    ],
    [
      { hours: { $constant: 'reopenWindowDays' } },
      `${PATH}.due.by: "by" picks hours from a map per value, but the hours are one number (constant "reopenWindowDays")`,
    ],
    [{ by: undefined }, `${PATH}.due.hours: hours per value (constant "slaHours") need "by": the enum field whose value picks them`],
    [{ doneWhen: { field: 'state', op: 'eq', value: 'done' } }, `${PATH}.due.doneWhen.value: "done" is not a state of ticket`],
    [{ soon: 1 }, `${PATH}.due.soon: unknown key`],
  ])('%j is refused with its place', (due, expected) => {
    const issues = issuesOf(withSlaDue(due));
    expect(
      issues.some((issue) => issue.startsWith(expected)),
      issues.join('\n'),
    ).toBe(true);
  });

  it('hours per value must cover the values of "by" exactly', () => {
    const constants = { ...helpdesk.constants, slaHours: { value: { urgent: 4, high: 8, normal: 24, someday: 500 }, unit: 'hours' } };
    expect(issuesOf(withSlaDue({}, {}, constants))).toEqual([
      `${PATH}.due.hours: no hours (constant "slaHours") for low of "priority"`,
      `${PATH}.due.hours: hours (constant "slaHours") for someday, which is not a value of "priority" (values: low, normal, high, urgent)`,
    ]);
  });

  it('a computed time takes neither a default nor required', () => {
    expect(issuesOf(withSlaDue({}, { default: 'now', required: true }))).toEqual([
      `${PATH}.default: a due time is computed: it takes no default`,
      `${PATH}.required: a due time is computed (empty while its "from" or "by" is): it cannot be required`,
    ]);
  });
});
