import { describe, expect, it } from 'vitest';
import { lending } from '../../ops/consequences.fixture';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';
import { buildModel } from '../build';
import { SpecError } from '../spec-error';

const issuesOf = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);
const LOAN = 'workflows.loan.transitions';

/** The lending spec with one transition of the loan's workflow changed. */
function withLoanTransition(name: string, changes: Record<string, unknown>): AppSpec {
  const workflow = lending.workflows.loan;
  const transitions = {
    ...workflow.transitions,
    [name]: { ...workflow.transitions[name as keyof typeof workflow.transitions], ...changes },
  };
  return { ...lending, workflows: { ...lending.workflows, loan: { ...workflow, transitions } } } as AppSpec;
}

describe('the spec check of consequences', () => {
  it('accepts the lending spec', () => {
    expect(issuesOf(lending)).toEqual([]);
  });

  it('checks effects on referenced records: a reference field, a field or transition of its entity, a fitting value, the authority', () => {
    const spec = withLoanTransition('complete', {
      effects: [
        { on: 'code', set: 'status', to: 'onLoan' },
        { on: 'item', set: 'colour', to: 'red' },
        { on: 'item', set: 'status', to: 'lost' },
        { on: 'equipment', transition: 'repair' },
        { on: 'equipment', transition: 'reserve', as: 'boss' },
        { on: 'item', set: 'status', to: 'onLoan', transition: 'reserve' },
        { on: 'item', set: 'state', to: 'x' },
      ],
    });
    expect(issuesOf(spec)).toEqual([
      `${LOAN}.complete.effects[0].on: "code" is not a reference field of loan (reference fields: item, equipment)`,
      `${LOAN}.complete.effects[1].set: unknown field "colour" of item`,
      `${LOAN}.complete.effects[2].to: "lost" does not fit the enum field "status" (expected one of available, onLoan)`,
      `${LOAN}.complete.effects[3].transition: unknown transition "repair" of equipment (transitions: reserve, breakDown, returnToService)`,
      `${LOAN}.complete.effects[4].as: must be "actor" (the default: their grants apply) or "system" (the engine's), got "boss"`,
      `${LOAN}.complete.effects[5]: an effect on a referenced record either sets a field ({ on, set, to }) or takes a transition ({ on, transition })`,
      `${LOAN}.complete.effects[6].set: unknown field "state" of item`,
    ]);
  });

  it("checks an entity's onCreate the same way, and requires `on`", () => {
    const spec = {
      ...lending,
      entities: {
        ...lending.entities,
        loan: {
          ...lending.entities.loan,
          onCreate: [
            { set: 'status', to: 'onLoan' },
            { on: 'item', transition: 'go' },
          ],
        },
      },
    } as AppSpec;
    expect(issuesOf(spec)).toEqual([
      'entities.loan.onCreate[0].on: is required: the reference field whose record the effect acts on',
      'entities.loan.onCreate[1].transition: unknown transition "go" of item (transitions: (none))',
    ]);
  });

  it('checks targets chosen by the data: known states, a `when` on each but the last, none on the last', () => {
    const spec = withLoanTransition('checkOut', {
      to: [
        { state: 'active' },
        { when: { field: 'amont', op: 'gt', value: 1 }, state: 'nowhere' },
        { when: { field: 'amount', op: 'gt', value: 1 }, state: 'active' },
      ],
    });
    expect(issuesOf(spec)).toEqual([
      `${LOAN}.checkOut.to[0].when: is required: only the last target may leave it out (the state entered otherwise)`,
      `${LOAN}.checkOut.to[1].state: unknown state "nowhere" (states: requested, secondApproval, active, done)`,
      expect.stringMatching(/^workflows\.loan\.transitions\.checkOut\.to\[1\]\.when\.field: unknown field "amont"/),
      `${LOAN}.checkOut.to[2].when: the last target has no \`when\`: it is the state entered when no earlier one holds`,
    ]);
    expect(() => buildModel(spec)).toThrow(SpecError);
    expect(issuesOf(withLoanTransition('checkOut', { to: [] }))).toEqual([
      `${LOAN}.checkOut.to: must be a state or a non-empty list of targets ({ when, state }, ..., { state })`,
    ]);
  });

  it('checks the code a rule or a uniqueWhen names against the catalogue', () => {
    const spec = {
      ...lending,
      entities: {
        ...lending.entities,
        loan: { ...lending.entities.loan, uniqueWhen: { ...lending.entities.loan.uniqueWhen, error: 'LOAN_EXIST' } },
      },
      rules: { loan: { noNegative: { ...lending.rules.loan.noNegative, error: 'NEGATIVE' } } },
    } as AppSpec;
    expect(issuesOf(spec)).toEqual([
      'entities.loan.uniqueWhen.error: unknown error code "LOAN_EXIST" (not built in, not under errors)',
      'rules.loan.noNegative.error: unknown error code "NEGATIVE" (not built in, not under errors)',
    ]);
  });
});
