import { describe, expect, it } from 'vitest';
import { boundedState, layoutOf, sameListState } from './list-state';

/* A saved view keeps how its list was shown (the table of a list that opens as a board). */
describe('a list state keeps its layout', () => {
  const state = { filters: { state: 'qualified' }, q: '', sort: '', columns: [] };

  it('keeps only a known layout, and none for the default', () => {
    expect(layoutOf('table')).toEqual({ layout: 'table' });
    expect(layoutOf('board')).toEqual({ layout: 'board' });
    expect(layoutOf('')).toEqual({});
    expect(layoutOf('grid')).toEqual({});
    expect(boundedState({ ...state, layout: 'table' }).layout).toBe('table');
    expect(boundedState(state)).not.toHaveProperty('layout');
  });

  it('tells a table from a board of the same filters', () => {
    expect(sameListState({ ...state, layout: 'table' }, state)).toBe(false);
    expect(sameListState({ ...state, layout: 'table' }, { ...state, layout: 'table' })).toBe(true);
  });
});
