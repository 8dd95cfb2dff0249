import { describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import { lending } from '../ops/consequences.fixture';
import { chooseTarget, chosenByData, targetStates } from './targets';
import type { Actor } from '../ground/actor';
import { findTransition } from './transitions';
import { describeMarkdown } from '../spec/describe';
import { targetText } from '../spec/describe/consequences';

const model = buildModel(lending);
const loan = model.entitiesByName.loan!;
const checkOut = findTransition(loan, 'checkOut');
const staff: Actor = { userId: 7, email: 'staff@example.com', name: 'Staff', roles: ['staff'] };
const now = new Date('2026-11-28T12:00:00Z');

describe('a transition whose target depends on the data', () => {
  it('is modelled as targets in order, the last without a condition; a plain one as one target', () => {
    expect(checkOut.to).toEqual([
      { state: 'secondApproval', when: { field: 'amount', op: 'gt', value: { $constant: 'secondApprovalOver' } } },
      { state: 'active' },
    ]);
    expect(findTransition(loan, 'approve').to).toEqual([{ state: 'active' }]);
    expect(chosenByData(checkOut)).toBe(true);
    expect(chosenByData(findTransition(loan, 'approve'))).toBe(false);
    expect(targetStates(checkOut)).toEqual(['secondApproval', 'active']);
  });

  it('enters the first target whose condition holds (the constant resolved), else the last', () => {
    expect(chooseTarget(model, checkOut, { amount: 10001 }, staff, now)).toBe('secondApproval');
    expect(chooseTarget(model, checkOut, { amount: 10000 }, staff, now)).toBe('active');
    expect(chooseTarget(model, checkOut, { amount: null }, staff, now)).toBe('active');
    expect(chooseTarget(model, findTransition(loan, 'approve'), {}, staff, now)).toBe('active');
  });

  it('reads in /spec as "to X when ..., otherwise Y", with an edge to each in the diagram', () => {
    expect(targetText(loan, checkOut)).toBe('Second approval when amount is more than secondApprovalOver, otherwise Active');
    expect(targetText(loan, findTransition(loan, 'approve'))).toBe('active');
    const markdown = describeMarkdown(model);
    expect(markdown).toContain('requested --> secondApproval: Check out');
    expect(markdown).toContain('requested --> active: Check out');
  });
});

describe('effects on referenced records in the model and /spec', () => {
  it('keeps own effects apart from those on referenced records, with their entity and authority (default the actor)', () => {
    expect(checkOut.effects).toEqual([]);
    expect(checkOut.referenceEffects).toEqual([{ on: 'item', target: 'item', as: 'actor', kind: 'set', set: 'status', to: 'onLoan' }]);
    expect(findTransition(loan, 'complete').referenceEffects.map((e) => e.as)).toEqual(['system', 'system']);
    expect(loan.onCreate).toEqual([{ on: 'equipment', target: 'equipment', as: 'system', kind: 'transition', transition: 'reserve' }]);
    expect(model.entitiesByName.item!.onCreate).toEqual([]);
  });

  it('states each effect and whose authority it runs with, and each own code', () => {
    const markdown = describeMarkdown(model);
    expect(markdown).toContain('on the item (`item`): set `status` to onLoan, as the acting user: their grants, scope and guards apply');
    expect(markdown).toContain('on the equipment (`equipment`): take Return to service (`returnToService`), as the system: no grant check');
    expect(markdown).toContain('### Effects of creating a record');
    expect(markdown).toContain('| `loan` | on the equipment (`equipment`): take Reserve (`reserve`), as the system');
    expect(markdown).toContain(
      '| loan: noNegative | always | amount is at least 0 | The amount cannot be negative. | amount | `NEGATIVE_AMOUNT` |',
    );
    expect(markdown).toContain('| `loan` | item is unique among loans where state is active | This item is already out. | `LOAN_EXISTS` |');
  });
});
