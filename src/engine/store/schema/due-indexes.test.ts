import { describe, expect, it } from 'vitest';
import helpdesk from '../../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../../spec/build';
import type { AppSpec } from '../../spec/types';
import { dueQueueIndexes } from './due-indexes';

const ticketOf = (spec: AppSpec) => buildModel(spec).entitiesByName.ticket;

describe('dueQueueIndexes', () => {
  it('indexes the records still running against the clock, by due time and per person', () => {
    const indexes = dueQueueIndexes(ticketOf(helpdesk)!);
    expect(indexes.map((i) => i.columns)).toEqual([
      ['sla_due_at', 'id'],
      ['requester', 'sla_due_at', 'id'],
      ['assignee', 'sla_due_at', 'id'],
    ]);
    for (const index of indexes) {
      expect(index.where).toBe(`not ("state" in ('resolved', 'closed'))`);
      expect(index.name).toMatch(/^ticket_.*sla_due_at_open_[0-9a-f]{8}_idx$/);
    }
  });

  it('makes none when the done condition compares with anything but literals (it would need parameters)', () => {
    const ticket = helpdesk.entities!.ticket;
    const spec: AppSpec = {
      ...helpdesk,
      entities: {
        ...helpdesk.entities,
        ticket: {
          ...ticket,
          fields: {
            ...ticket.fields,
            slaDueAt: {
              type: 'datetime',
              due: { from: 'createdAt', hours: 4, doneWhen: { field: 'resolvedAt', op: 'lt', value: { now: true } } },
            },
          },
        },
      },
    };
    expect(dueQueueIndexes(ticketOf(spec)!)).toEqual([]);
  });
});
