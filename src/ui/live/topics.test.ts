import { afterEach, describe, expect, it, vi } from 'vitest';
import { concerns, declareInterest, dispatchChanges, refreshable } from './topics';

describe('live topics', () => {
  const withdraw: (() => void)[] = [];
  afterEach(() => withdraw.splice(0).forEach((w) => w()));

  it('tells whether a change concerns what a page shows', () => {
    expect(concerns({ entity: 'ticket' }, { ticket: [3] })).toBe(true);
    expect(concerns({ entity: 'ticket', ids: [1] }, { ticket: [3] })).toBe(false);
    expect(concerns({ entity: 'ticket', ids: [3] }, { ticket: [2, 3] })).toBe(true);
    expect(concerns({ entity: 'ticket', ids: [3] }, { ticket: null })).toBe(true);
    expect(concerns({ entity: 'comment' }, { ticket: [3] })).toBe(false);
  });

  it('refreshes for pages that show the records, and calls an edit form instead of refreshing it', () => {
    expect(refreshable()).toBe(false);
    withdraw.push(declareInterest({ topics: [{ entity: 'ticket', ids: [1] }, { entity: 'comment' }] }));
    expect(refreshable()).toBe(true);
    expect(dispatchChanges({ comment: [9] })).toBe(true);
    expect(dispatchChanges({ ticket: [2] })).toBe(false);
    withdraw.splice(0).forEach((w) => w());

    const edited = vi.fn();
    withdraw.push(declareInterest({ topics: [{ entity: 'ticket', ids: [1] }], onChange: edited }));
    expect(refreshable()).toBe(false);
    expect(dispatchChanges({ ticket: [1] })).toBe(false);
    expect(edited).toHaveBeenCalledTimes(1);
  });
});
