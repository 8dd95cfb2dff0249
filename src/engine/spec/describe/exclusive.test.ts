import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import type { AppSpec, ExclusiveSpec } from '../types';
import { exclusiveText } from './exclusive';

const OVERLAP = 'This technician already has a visit at that time.';

function modelWith(exclusive?: ExclusiveSpec | readonly ExclusiveSpec[]) {
  return buildModel({
    name: 'field-service',
    entities: {
      technician: { fields: { name: { type: 'text', required: true } } },
      event: { fields: { name: { type: 'text', required: true }, capacity: { type: 'integer' } } },
      visit: {
        fields: {
          title: { type: 'text', required: true },
          technician: { type: 'reference', to: 'technician', required: true },
          van: { type: 'enum', values: ['one', 'two'] },
          startsAt: { type: 'datetime', required: true },
          endsAt: { type: 'datetime' },
        },
        exclusive,
      },
      booking: {
        fields: { code: { type: 'text', required: true }, event: { type: 'reference', to: 'event', required: true } },
        limits: { confirmedPerEvent: { per: 'event', max: { field: 'event.capacity' }, message: 'This event is full ({max} places).' } },
      },
    },
    workflows: {
      visit: {
        states: { scheduled: { initial: true }, cancelled: {}, declined: {} },
        transitions: { cancel: { from: 'scheduled', to: 'cancelled', allow: ['agent'] } },
      },
    },
    roles: { agent: { label: 'Agent' } },
    errors: { VISIT_OVERLAP: { status: 409, title: 'Visit overlap', message: OVERLAP } },
  } as AppSpec);
}

const RANGE = ['startsAt', 'endsAt'] as const;

describe('exclusive in the nine-point document', () => {
  it('says each rule in words: whose records, the range, and what the condition leaves out', () => {
    const model = modelWith([
      { range: RANGE, per: 'technician', where: { field: 'state', op: 'notIn', value: ['cancelled', 'declined'] } },
      { range: RANGE, per: ['technician', 'van'], where: { field: 'van', op: 'eq', value: 'one' } },
      { range: RANGE },
      { range: RANGE, per: 'van' },
    ]);
    const visit = model.entitiesByName.visit!;
    expect(visit.exclusive.map((rule) => exclusiveText(visit, rule))).toEqual([
      "A technician's visits never overlap (Starts at to Ends at), except cancelled or declined ones",
      'Visits with the same technician and van never overlap (Starts at to Ends at), among those where van is one',
      'Visits never overlap (Starts at to Ends at)',
      "A van's visits never overlap (Starts at to Ends at)",
    ]);
  });

  it('lists the rules under point 5 with the message and the code they are refused with', () => {
    const markdown = describeMarkdown(
      modelWith({ range: RANGE, per: 'technician', where: { field: 'state', op: 'ne', value: 'cancelled' }, error: 'VISIT_OVERLAP' }),
    );
    expect(markdown).toContain('### Ranges that never overlap');
    expect(markdown).toContain(
      `| \`visit\` | A technician's visits never overlap (Starts at to Ends at), except cancelled ones | ${OVERLAP} | \`VISIT_OVERLAP\` |`,
    );
  });

  it("says a limit's maximum is the referenced record's field, in its message too", () => {
    const markdown = describeMarkdown(modelWith());
    expect(markdown).toContain(
      "| booking: confirmedPerEvent | the event's capacity (`event.capacity`; no limit when empty) | event (an event) | every booking | — | This event is full (the event's capacity places). |",
    );
    expect(markdown).not.toContain('Ranges that never overlap');
  });
});
