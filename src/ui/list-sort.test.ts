import { describe, expect, it } from 'vitest';
import { testModel } from '@testing/engine/ops';
import { listColumns } from './columns';
import { sortChoices } from './list-sort';

const ticket = testModel.entitiesByName.ticket!;

describe('the sort choices of a list (for phones, where the headers are not shown)', () => {
  it('offer each sortable column both ways, times as earliest or latest first', () => {
    const { columns } = listColumns(testModel, ticket, new Set(ticket.fields.map((f) => f.name)), [
      'id',
      'subject',
      'description',
      'slaDueAt',
    ]);
    expect(sortChoices(columns)).toEqual([
      { value: 'id', label: 'ID, ascending' },
      { value: '-id', label: 'ID, descending' },
      { value: 'subject', label: 'Subject, ascending' },
      { value: '-subject', label: 'Subject, descending' },
      { value: 'slaDueAt', label: 'SLA due, earliest first' },
      { value: '-slaDueAt', label: 'SLA due, latest first' },
    ]);
  });
});
