import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { evaluateCondition } from '../condition/evaluate';
import { conditionText } from './describe/text';
import { buildModel } from './build';
import { describeMarkdown } from './describe';
import type { AppSpec, CalendarSpec, Condition, TransitionSpec } from './types';
import { validateSpec } from './validate';

const issuesOf = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);
const CLOSE = helpdesk.workflows!.ticket.transitions.close;

/** The helpdesk with a calendar, and its `close` transition changed. */
function withCalendar(calendar: CalendarSpec | undefined, close: Record<string, unknown> = {}): AppSpec {
  const workflow = helpdesk.workflows!.ticket;
  const changed = { ...CLOSE, ...close } as unknown as TransitionSpec;
  return {
    ...helpdesk,
    ...(calendar ? { calendar } : {}),
    workflows: { ...helpdesk.workflows, ticket: { ...workflow, transitions: { ...workflow.transitions, close: changed } } },
  };
}

describe('the working calendar in the spec', () => {
  it('is Monday to Friday in the product zone by default, and reads names, dates and yearly days', () => {
    expect(buildModel(helpdesk).calendar).toEqual({ weekend: [6, 7], holidays: [], yearly: [], zone: 'UTC' });
    const model = buildModel(withCalendar({ weekend: ['sunday', 'friday', 'saturday'], holidays: ['12-25', '2026-04-06', '01-01'] }));
    expect(model.calendar).toMatchObject({ weekend: [5, 6, 7], holidays: ['2026-04-06'], yearly: [101, 1225] });
  });

  it.each([
    [{ weekend: ['sat'] }, 'calendar.weekend[0]: "sat" is not a weekday (monday, tuesday'],
    [{ weekend: 'sunday' }, 'calendar.weekend: must be a list of weekdays'],
    [
      { weekend: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] },
      'calendar.weekend: leaves no working day in the week',
    ],
    [{ holidays: ['2026-02-30'] }, `calendar.holidays[0]: "2026-02-30" is not a date ('YYYY-MM-DD'`],
    [{ holidays: ['13-01'] }, `calendar.holidays[0]: "13-01" is not a date`],
    [{ holidays: ['25/12'] }, `calendar.holidays[0]: "25/12" is not a date`],
    [{ days: ['monday'] }, 'calendar.days: unknown key'],
  ])('%j is refused with its place', (calendar, expected) => {
    const issues = issuesOf(withCalendar(calendar as unknown as CalendarSpec));
    expect(
      issues.some((issue) => issue.startsWith(expected)),
      issues.join('\n'),
    ).toBe(true);
  });

  it("takes '02-29' as a yearly day and working days as whole numbers only", () => {
    expect(issuesOf(withCalendar({ holidays: ['02-29'] }))).toEqual([]);
    expect(issuesOf(withCalendar(undefined, { auto: { after: 'resolvedAt', workingDays: 1.5 } }))).toContain(
      'workflows.ticket.transitions.close.auto.workingDays: working days are whole days: must be a whole number, got 1.5',
    );
  });

  it('refuses working days on a field that is no date or time', () => {
    const rules = {
      ticket: { late: { message: 'x', assert: { field: 'createdAt', op: 'lt', value: { field: 'subject', plus: { workingDays: 2 } } } } },
    };
    const issues = issuesOf({ ...helpdesk, rules: rules as AppSpec['rules'] });
    expect(issues.some((i) => i.includes('only a date or datetime field can be moved by plus or minus'))).toBe(true);
  });

  it('counts an automatic transition in working days, and the document says on which calendar', () => {
    const spec = withCalendar({ holidays: ['12-25', '2026-12-28'] }, { auto: { after: 'resolvedAt', workingDays: 3 } });
    const model = buildModel(spec);
    const close = model.entitiesByName.ticket!.workflow!.transitions.find((t) => t.name === 'close')!;
    expect(close.auto).toMatchObject({ offsetSeconds: 0, workingDays: { count: 3, calendar: model.calendar } });
    const text = describeMarkdown(model);
    expect(text).toContain('automatically, 3 working days (Mon–Fri, 2 holidays) after resolvedAt');
    expect(text).toContain('Working days are Mon–Fri');
    expect(text).toContain('except the days off `every 12-25`, `2026-12-28`');
    expect(text).toContain('Counted in `workflows.ticket.transitions.close.auto.workingDays`.');
  });

  it('says nothing of working days for a field that is only named so', () => {
    const entities = { ...helpdesk.entities, shift: { fields: { workingDays: { type: 'integer' } } } } as AppSpec['entities'];
    expect(describeMarkdown(buildModel({ ...helpdesk, entities }))).not.toContain('Working days are');
  });

  it('moves times in conditions by working days in memory, and says so', () => {
    const model = buildModel(withCalendar({ weekend: ['friday', 'saturday'] }));
    const late: Condition = { field: 'createdAt', op: 'lt', value: { now: true, minus: { workingDays: 1 } } };
    const entity = model.entitiesByName.ticket!;
    expect(conditionText(late, entity)).toContain('now minus 1 working day');
    expect(describeMarkdown(model)).toContain('Working days are Sun–Thu');
    // Sunday noon, one working day back (Friday and Saturday off) is Thursday noon.
    const now = new Date('2026-06-07T12:00:00Z');
    const source = { constants: {}, calendar: { ...model.calendar, zone: 'UTC' } };
    expect(evaluateCondition(source, late, { createdAt: new Date('2026-06-04T11:59:00Z') }, now)).toBe(true);
    expect(evaluateCondition(source, late, { createdAt: new Date('2026-06-04T12:01:00Z') }, now)).toBe(false);
  });
});
