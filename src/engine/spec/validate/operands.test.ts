import { describe, expect, it } from 'vitest';
import type { AppSpec, Condition } from '../types';
import { validateSpec } from '../validate';

/** A task list whose permission scope and rule take the condition under test. */
function specWith(scopeWhere: Condition, ruleAssert?: Condition): AppSpec {
  return {
    name: 'tasks',
    entities: {
      task: {
        fields: {
          title: { type: 'text', required: true },
          owner: { type: 'user' },
          due: { type: 'date' },
        },
      },
    },
    roles: { member: {} },
    permissions: { task: { member: { list: { where: scopeWhere }, read: true } } },
    ...(ruleAssert ? { rules: { task: { check: { message: 'No.', assert: ruleAssert } } } } : {}),
  };
}

const messages = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);

describe('the { actor: true } and { param } operands', () => {
  it('{ actor: true } compares a user field with the signed-in user in a permission scope', () => {
    expect(messages(specWith({ field: 'owner', op: 'eq', value: { actor: true } }))).toEqual([]);
  });

  it('{ actor: true } is refused on a field that is not a user, and where no user is looking', () => {
    expect(messages(specWith({ field: 'title', op: 'eq', value: { actor: true } }))).toEqual([
      'permissions.task.member.list.where.value: { actor: true } can only be compared with a user field, not a text field',
    ]);
    // A rule holds for the user who writes, so it may name them; a limit counts everyone's records.
    expect(messages(specWith({ field: 'owner', op: 'present' }, { field: 'owner', op: 'eq', value: { actor: true } }))).toEqual([]);
    const base = specWith({ field: 'owner', op: 'present' });
    const task = base.entities!.task!;
    const inLimit = messages({
      ...base,
      entities: {
        task: { ...task, limits: { few: { max: 3, per: 'owner', where: { field: 'owner', op: 'eq', value: { actor: true } } } } },
      },
    });
    expect(inLimit).toEqual(['entities.task.limits.few.where.value: { actor: true } (the signed-in user) cannot be used here']);
  });

  it('{ param } belongs to custom routes only', () => {
    expect(messages(specWith({ field: 'title', op: 'eq', value: { param: 'name' } }))).toEqual([
      'permissions.task.member.list.where.value: { param } can only be used in a custom route',
    ]);
  });

  it('names the operands it knows when given another', () => {
    expect(messages(specWith({ field: 'title', op: 'eq', value: { user: 1 } as never }))).toEqual([
      'permissions.task.member.list.where.value: not a valid value: expected a literal, { $constant }, { field }, { now: true } (either may be moved by plus or minus a duration), { daysAgo }, { actor: true } or { param }',
    ]);
  });
});

describe('now and time fields moved by a duration', () => {
  const rule = (value: unknown) => specWith({ field: 'owner', op: 'present' }, { field: 'due', op: 'gt', value } as Condition);
  const PLACE = 'rules.task.check.assert.value';

  it('accepts plus or minus in minutes, hours or days, a number or a constant', () => {
    expect(messages(rule({ now: true, plus: { hours: 24 } }))).toEqual([]);
    expect(messages(rule({ field: 'due', minus: { days: 2 } }))).toEqual([]);
    expect(messages(rule({ now: true, minus: { minutes: 0 } }))).toEqual([]);
  });

  it.each([
    [{ now: true, plus: { hours: 1 }, minus: { hours: 1 } }, `${PLACE}: give "plus" or "minus", not both`],
    [{ now: true, plus: {} }, `${PLACE}.plus: needs one of minutes, hours, days or workingDays`],
    [{ now: true, plus: { weeks: 1 } }, `${PLACE}.plus.weeks: unknown key`],
    [{ now: true, plus: { hours: -1 } }, `${PLACE}.plus.hours: must be a number ≥ 0 of hours or { $constant } naming one, got -1`],
    [{ now: true, plus: { hours: 1, days: 1 } }, `${PLACE}.plus: give the duration in one unit, not hours, days`],
    [{ now: true, plus: { hours: { $constant: 'nope' } } }, `${PLACE}.plus.hours.$constant: unknown constant "nope"`],
    [
      { field: 'title', plus: { hours: 1 } },
      `${PLACE}: only a date or datetime field can be moved by plus or minus; "title" is a text field`,
    ],
  ])('%j is refused with its place', (value, expected) => {
    expect(messages(rule(value)).some((m) => m.startsWith(expected))).toBe(true);
  });
});
