import { describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { AppSpec, Condition } from '../spec/types';
import { compileCondition } from './compile';
import { evaluateCondition } from './evaluate';
import { conditionFields, conditionPathsOf, readsActor } from './fields';
import { compiledConditionText } from './text';

const model = buildModel({
  name: 'desk',
  constants: { old: { value: 30 }, top: { value: 'urgent' } },
  roles: { agent: {} },
  users: { fields: { team: { type: 'reference', to: 'team' } } },
  entities: {
    team: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    ticket: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        priority: { type: 'enum', values: ['urgent', 'normal'] },
        team: { type: 'reference', to: 'team' },
        opened: { type: 'datetime' },
        closed: { type: 'datetime' },
      },
    },
  },
  rules: {
    ticket: {
      closedAfterOpened: {
        when: { field: 'closed', op: 'present' },
        assert: { field: 'closed', op: 'gte', value: { field: 'opened' } },
        message: 'Closed before opened.',
      },
    },
  },
  permissions: { ticket: { agent: { read: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } } } } },
} as unknown as AppSpec);
const ticket = model.entitiesByName.ticket!;

describe('the compiled condition', () => {
  it('is compiled once by the model build, for the rules and the scopes alike', () => {
    const rule = ticket.rules.closedAfterOpened!;
    expect(model.conditions.of(rule.assert)).toBe(model.conditions.of(rule.assert));
    expect(model.conditions.of(rule.assert)).toEqual({
      kind: 'compare',
      subject: { field: 'closed', head: 'closed', tail: null },
      op: 'gte',
      operand: { kind: 'field', field: 'opened' },
    });
    const scope = ticket.permissions.agent!.read;
    const where = scope !== true && scope?.where;
    expect(where && model.conditions.of(where)).toMatchObject({ kind: 'compare', operand: { kind: 'actor', name: 'team' } });
  });

  it('resolves constants and days once, keeping their names for the text', () => {
    // The spec's checks allow a constant in a list, which the type does not spell out.
    const condition = {
      all: [
        { field: 'priority', op: 'in', value: [{ $constant: 'top' }] },
        { field: 'opened', op: 'lt', value: { daysAgo: { $constant: 'old' } } },
      ],
    } as unknown as Condition;
    const compiled = compileCondition(condition, model.constants);
    expect(compiled).toMatchObject({
      kind: 'all',
      items: [
        { kind: 'in', values: [{ kind: 'literal', value: 'urgent', constant: 'top' }] },
        { kind: 'compare', operand: { kind: 'daysAgo', days: 30, constant: 'old' } },
      ],
    });
    expect(compiledConditionText(compiled, ticket)).toBe('priority is one of top and opened is before old days ago');
  });

  it('moves now and time fields by a duration, constants resolved, in memory and in words', () => {
    const condition: Condition = {
      all: [
        { field: 'opened', op: 'gt', value: { now: true, plus: { hours: 24 } } },
        { field: 'opened', op: 'lte', value: { now: true, minus: { days: { $constant: 'old' } } } },
      ],
    };
    const compiled = compileCondition(condition, model.constants);
    expect(compiled).toMatchObject({
      items: [
        { operand: { kind: 'now', shift: { seconds: 86_400, sign: 'plus', amount: 24, unit: 'hours' } } },
        { operand: { kind: 'now', shift: { seconds: -30 * 86_400, sign: 'minus', amount: 30, unit: 'days', constant: 'old' } } },
      ],
    });
    expect(compiledConditionText(compiled, ticket)).toBe('opened is after now plus 24 hours and opened is on or before now minus old days');
    const now = new Date('2026-11-28T12:00:00Z');
    const inAWeek = { opened: '2026-12-05T12:00:00Z' };
    expect(evaluateCondition(model, { field: 'opened', op: 'gt', value: { now: true, plus: { hours: 24 } } }, inAWeek, now)).toBe(true);
    expect(evaluateCondition(model, { field: 'opened', op: 'gt', value: { now: true, plus: { days: 8 } } }, inAWeek, now)).toBe(false);
  });

  it('holds "eq" another field only when both have a value, as SQL does (found by the differential test)', () => {
    const same: Condition = { field: 'closed', op: 'eq', value: { field: 'opened' } };
    const now = new Date();
    expect(evaluateCondition(model, same, { closed: null, opened: null }, now)).toBe(false);
    expect(evaluateCondition(model, same, { closed: '2026-01-01T00:00:00Z', opened: '2026-01-01T00:00:00Z' }, now)).toBe(true);
    const differs: Condition = { field: 'closed', op: 'ne', value: { field: 'opened' } };
    expect(evaluateCondition(model, differs, { closed: null, opened: null }, now)).toBe(false);
    expect(evaluateCondition(model, differs, { closed: '2026-01-01T00:00:00Z', opened: null }, now)).toBe(true);
  });

  it('collects fields as each reader needs them: a path by its head or whole, operands or not', () => {
    const compiled = compileCondition(
      {
        any: [
          { not: { field: 'team.name', op: 'eq', value: 'ops' } },
          { field: 'closed', op: 'gte', value: { field: 'opened' } },
          { field: 'team', op: 'eq', value: { actor: true } },
        ],
      },
      {},
    );
    expect(conditionFields(compiled, { paths: 'head', operands: true })).toEqual(['team', 'closed', 'opened']);
    expect(conditionFields(compiled, { paths: 'whole', operands: false })).toEqual(['team.name', 'closed', 'team']);
    expect(conditionFields(compiled, { paths: 'none', operands: false })).toEqual(['closed', 'team']);
    expect(conditionPathsOf(compiled)).toEqual(['team.name']);
    expect(readsActor(compiled)).toBe(true);
  });
});
