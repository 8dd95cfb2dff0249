import { describe, expect, it } from 'vitest';
import type { RecordData, TransitionOffer } from '@/engine/ops/types';
import { planOffers } from './transition-plan';

const record = {
  id: 1,
  version: 3,
  createdAt: new Date(),
  updatedAt: new Date(),
  createdBy: 1,
  updatedBy: 1,
  state: 'new',
  assignee: null,
  subject: 'Hi',
} as RecordData;
const start: TransitionOffer = {
  name: 'start',
  label: 'Start',
  to: 'open',
  available: false,
  blockedReason: 'Needs an assignee.',
  requires: ['assignee'],
};

describe('planOffers', () => {
  it('asks for a missing required field the actor may write, with the transition', () => {
    expect(planOffers([start], record, new Set(['assignee']))).toEqual([{ offer: start, mode: 'input', ask: ['assignee'] }]);
  });

  it('keeps it blocked, with its reason, when the actor cannot write the field (or cannot read it)', () => {
    expect(planOffers([start], record, new Set(['subject']))).toEqual([{ offer: start, mode: 'blocked', ask: [] }]);
    const { assignee: _hidden, ...redacted } = record;
    expect(planOffers([start], redacted as RecordData, new Set())).toEqual([{ offer: start, mode: 'blocked', ask: [] }]);
  });

  it('keeps a transition blocked by something else (a guard, a passed window) blocked', () => {
    const reopen: TransitionOffer = {
      name: 'reopen',
      label: 'Reopen',
      to: 'open',
      available: false,
      blockedReason: 'Too late.',
      requires: [],
    };
    expect(planOffers([reopen], record, new Set(['assignee']))[0]!.mode).toBe('blocked');
  });

  it('offers an available transition as ready, asking nothing', () => {
    const wait: TransitionOffer = { name: 'wait', label: 'Wait', to: 'pending', available: true, requires: [], comment: 'optional' };
    expect(planOffers([wait], record, new Set(['assignee']))).toEqual([{ offer: wait, mode: 'ready', ask: [] }]);
  });
});
