import { describe, expect, it } from 'vitest';
import { checkEntityRules } from '../rules/entity-rules';
import { buildModel } from './build';
import { SpecError } from './spec-error';
import type { AppSpec } from './types';

const DAY_MS = 24 * 60 * 60 * 1000;

function specWith(fields: Record<string, unknown>): AppSpec {
  return {
    name: 'bounds',
    entities: { trip: { fields: { name: { type: 'text' }, ...fields } as never } },
    constants: { bookingWindowDays: { value: 30, unit: 'days' } },
  };
}

const model = buildModel(
  specWith({
    startsOn: { type: 'date', after: { now: true }, label: 'Start' },
    endsOn: { type: 'date', after: { field: 'startsOn' }, rangeMessage: 'The trip must end after it starts.' },
    bookedAt: { type: 'datetime', after: { daysAgo: { $constant: 'bookingWindowDays' } }, before: { daysAgo: -1 } },
  }),
);
const trip = model.entitiesByName.trip!;
const now = new Date('2030-06-15T12:00:00Z');
const codes = (record: Record<string, unknown>, before?: Record<string, unknown>) =>
  checkEntityRules(model, trip, record, now, before).map((e) => e.code);

describe('date ranges on fields', () => {
  it('become record rules with a message naming the bound', () => {
    expect(Object.keys(trip.rules)).toEqual(['startsOnAfter', 'endsOnAfter', 'bookedAtAfter', 'bookedAtBefore']);
    expect(trip.rules.startsOnAfter!.message).toBe('Start must be after now.');
    expect(trip.rules.endsOnAfter!.message).toBe('The trip must end after it starts.');
    expect(trip.rules.bookedAtAfter!.message).toBe('Booked at must be after bookingWindowDays days ago.');
    expect(trip.rules.bookedAtBefore!.message).toBe('Booked at must be before 1 days from now.');
  });

  it('hold relative to now, to a constant number of days, and to another field', () => {
    expect(codes({ startsOn: '2030-06-16', endsOn: '2030-06-20' })).toEqual([]);
    expect(codes({ startsOn: '2030-06-14' })).toEqual(['startsOnAfter']);
    expect(codes({ startsOn: '2030-06-20', endsOn: '2030-06-19' })).toEqual(['endsOnAfter']);
    expect(codes({ bookedAt: new Date(now.getTime() - 31 * DAY_MS) })).toEqual(['bookedAtAfter']);
    expect(codes({ bookedAt: new Date(now.getTime() + 2 * DAY_MS) })).toEqual(['bookedAtBefore']);
    expect(codes({ bookedAt: new Date(now.getTime() - 29 * DAY_MS) })).toEqual([]);
    // Empty values are the business of `required`, not of the range.
    expect(codes({ startsOn: null, endsOn: '2000-01-01' })).toEqual([]);
  });

  it('relative to now: checked only when the value changes, so a passed date does not block later edits', () => {
    const stored = { startsOn: '2030-01-01', endsOn: '2030-01-05' };
    expect(codes({ ...stored, name: 'renamed' }, stored)).toEqual([]);
    expect(codes({ ...stored, startsOn: '2030-01-03' }, stored)).toEqual(['startsOnAfter']);
    // A bound on another field is always checked: it does not drift with time.
    expect(codes({ ...stored, endsOn: '2029-12-31' }, stored)).toEqual(['endsOnAfter']);
  });

  it('are checked when the spec is loaded', () => {
    const issues = (fields: Record<string, unknown>) => {
      try {
        buildModel(specWith(fields));
        return [];
      } catch (error) {
        return (error as SpecError).issues.map((i) => `${i.path}: ${i.message}`);
      }
    };
    expect(issues({ d: { type: 'date', after: { field: 'nope' } } })).toEqual([
      expect.stringMatching(/^entities\.trip\.fields\.d\.after.*unknown field "nope"/),
    ]);
    expect(issues({ d: { type: 'date', before: 'tomorrow' } })).toEqual([
      expect.stringMatching(/^entities\.trip\.fields\.d\.before: must be \{ now: true \}/),
    ]);
    expect(issues({ d: { type: 'date', after: { daysAgo: { $constant: 'missing' } } } })).toEqual([
      expect.stringMatching(/constant "missing" is not declared/),
    ]);
    expect(issues({ n: { type: 'integer', after: { now: true } } })).toEqual([
      expect.stringMatching(/^entities\.trip\.fields\.n\.after: unknown key/),
    ]);
  });
});
