import { describe, expect, it } from 'vitest';
import publication from '../../../examples/publication/ninefold.spec';
import { buildModel } from '../spec/build';
import { testModel, testSpec } from '@testing/engine/ops';
import { rowsCapFor, tooManyRows } from './rows-cap';
import type { Actor } from '../ground/actor';

const as = (...roles: string[]): Actor => ({ userId: 1, email: 'someone@example.com', name: 'Someone', roles });

describe('the rows of one import', () => {
  it('are capped higher for staff (a role that may create any record of the entity) than for everyone else', () => {
    const ticket = testModel.entitiesByName.ticket!;
    expect(rowsCapFor(testModel, ticket, as('agent'))).toEqual({ max: 100_000, constant: 'importMaxRows' });
    expect(rowsCapFor(testModel, ticket, as('admin'))).toEqual({ max: 100_000, constant: 'importMaxRows' });
    // A customer creates only tickets they request (create: { own: 'requester' }).
    expect(rowsCapFor(testModel, ticket, as('customer'))).toEqual({ max: 1000, constant: 'importMaxRowsScoped' });
    // Staff on one entity is not staff on another: a customer's replies go only on their own tickets.
    expect(rowsCapFor(testModel, testModel.entitiesByName.comment!, as('customer', 'agent')).constant).toBe('importMaxRows');
    expect(rowsCapFor(testModel, testModel.entitiesByName.comment!, as('customer')).constant).toBe('importMaxRowsScoped');
  });

  it('does not count the public’s grant, which everyone holds: a contact form makes no one staff', () => {
    const model = buildModel(publication);
    expect(rowsCapFor(model, model.entitiesByName.enquiry!, as('writer')).constant).toBe('importMaxRowsScoped');
    expect(rowsCapFor(model, model.entitiesByName.tag!, as('editor')).constant).toBe('importMaxRows');
  });

  it('takes both caps from the spec’s constants, the lower one never above the other', () => {
    const ticket = testModel.entitiesByName.ticket!;
    const raised = buildModel({
      ...testSpec,
      constants: { ...testSpec.constants, importMaxRows: { value: 500 }, importMaxRowsScoped: { value: 20 } },
    });
    expect(rowsCapFor(raised, ticket, as('agent')).max).toBe(500);
    expect(rowsCapFor(raised, ticket, as('customer')).max).toBe(20);
    const inverted = buildModel({ ...testSpec, constants: { ...testSpec.constants, importMaxRows: { value: 10 } } });
    expect(rowsCapFor(inverted, ticket, as('customer')).max).toBe(10);
  });

  it('is refused in the catalogue’s words, naming the cap', () => {
    const error = tooManyRows(testModel.entitiesByName.ticket!, { max: 1000, constant: 'importMaxRowsScoped' });
    expect([error.code, error.status, error.message]).toEqual([
      'PAYLOAD_TOO_LARGE',
      413,
      'The file has more than 1,000 rows; at most 1,000 tickets can be imported at once. Split it into smaller files.',
    ]);
    expect(error.details).toEqual({ constant: 'importMaxRowsScoped', max: 1000 });
  });
});
