import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../spec/build';
import { isOverdue } from './overdue';

const model = buildModel(helpdesk);
const slaDueAt = model.entitiesByName.ticket!.fieldsByName.slaDueAt!;
const now = new Date('2025-03-04T12:00:00Z');

describe('overdue', () => {
  it('is a due time passed while doneWhen does not hold', () => {
    expect(isOverdue(model, slaDueAt, { slaDueAt: new Date('2025-03-04T11:59:00Z'), state: 'open' }, now)).toBe(true);
    expect(isOverdue(model, slaDueAt, { slaDueAt: '2025-03-04T11:59:00.000Z', state: 'pending' }, now)).toBe(true);
    expect(isOverdue(model, slaDueAt, { slaDueAt: new Date('2025-03-04T12:01:00Z'), state: 'open' }, now)).toBe(false);
    expect(isOverdue(model, slaDueAt, { slaDueAt: new Date('2025-03-01T00:00:00Z'), state: 'resolved' }, now)).toBe(false);
    expect(isOverdue(model, slaDueAt, { slaDueAt: null, state: 'open' }, now)).toBe(false);
  });

  it('is never told when the record is shown without a field doneWhen reads', () => {
    expect(isOverdue(model, slaDueAt, { slaDueAt: new Date('2025-03-01T00:00:00Z') }, now)).toBe(false);
  });

  it('needs a due field', () => {
    const dueAt = model.entitiesByName.ticket!.fieldsByName.dueAt!;
    expect(isOverdue(model, dueAt, { dueAt: new Date('2025-03-01T00:00:00Z'), state: 'open' }, now)).toBe(false);
  });
});
