import { describe, expect, it } from 'vitest';
import crm from '../../../../examples/crm/ninefold.spec';
import { buildModel } from '../build';
import type { AppSpec, ListScreenSpec } from '../types';
import { validateSpec } from '../validate';

/** The CRM with its deal list replaced by this one (raw: a spec from a JavaScript file may hold anything). */
function withDealList(list: Readonly<Record<string, unknown>>): AppSpec {
  return { ...crm, screens: { ...crm.screens, lists: { ...crm.screens?.lists, deal: list as ListScreenSpec } } };
}

const issuesOf = (list: Readonly<Record<string, unknown>>) => validateSpec(withDealList(list)).map((i) => `${i.path}: ${i.message}`);

describe('screens.lists.<entity>.board', () => {
  it('accepts a board by the workflow state or an enum field, summing a number', () => {
    expect(issuesOf({ board: 'state' })).toEqual([]);
    expect(issuesOf({ board: 'state', sum: 'discount' })).toEqual([]);
    const withStage = {
      ...withDealList({ board: 'stage' }),
      entities: {
        ...crm.entities,
        deal: { ...crm.entities!.deal!, fields: { ...crm.entities!.deal!.fields, stage: { type: 'enum', values: ['a', 'b'] } } },
      },
    } as AppSpec;
    expect(validateSpec(withStage)).toEqual([]);
    expect(buildModel(withStage).entitiesByName.deal!.list.board).toEqual({ field: 'stage', values: ['a', 'b'], sum: 'value' });
  });

  it('builds the columns in the workflow order, summing the first money field by default', () => {
    const model = buildModel(withDealList({ board: 'state' }));
    expect(model.entitiesByName.deal!.list.board).toEqual({
      field: 'state',
      values: ['lead', 'qualified', 'proposal', 'won', 'lost'],
      sum: 'value',
    });
    expect(buildModel(withDealList({})).entitiesByName.deal!.list.board).toBeNull();
  });

  it.each([
    [{ board: 'stage' }, 'screens.lists.deal.board: unknown column "stage" of deal'],
    [
      { board: 'title' },
      'screens.lists.deal.board: "title" is a text field: a board has a column per value of the workflow\'s state ("state") or of an enum field',
    ],
    [{ board: 3 }, 'screens.lists.deal.board: must be a field name, got 3'],
    [{ sum: 'value' }, 'screens.lists.deal.sum: is the sum under each column of a board: declare "board" too'],
    [
      { board: 'state', sum: 'title' },
      'screens.lists.deal.sum: "title" is a text field; only a number can be summed (integer, decimal, money)',
    ],
    [{ board: 'state', sum: 'amount' }, 'screens.lists.deal.sum: unknown column "amount" of deal'],
  ])('reports %j', (list, message) => {
    expect(issuesOf(list)).toEqual([expect.stringContaining(message)]);
  });
});
