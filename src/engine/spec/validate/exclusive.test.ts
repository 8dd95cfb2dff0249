import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** A field-service spec: technicians' visits, rooms booked by the day, events with a capacity. */
function specWith(visit: Record<string, unknown> = {}, booking: Record<string, unknown> = {}): AppSpec {
  return {
    name: 'field-service',
    entities: {
      technician: { titleField: 'name', fields: { name: { type: 'text', required: true }, level: { type: 'integer' } } },
      event: {
        titleField: 'name',
        fields: { name: { type: 'text', required: true }, capacity: { type: 'integer' }, room: { type: 'text' } },
      },
      visit: {
        titleField: 'title',
        fields: {
          title: { type: 'text', required: true },
          technician: { type: 'reference', to: 'technician', required: true },
          startsAt: { type: 'datetime', required: true },
          endsAt: { type: 'datetime' },
          day: { type: 'date' },
          notes: { type: 'markdown' },
        },
        ...visit,
      },
      booking: {
        titleField: 'code',
        fields: {
          code: { type: 'text', required: true },
          event: { type: 'reference', to: 'event', required: true },
          guest: { type: 'user' },
        },
        ...booking,
      },
    },
    workflows: {
      visit: {
        states: { scheduled: { initial: true }, cancelled: {} },
        transitions: { cancel: { from: 'scheduled', to: 'cancelled', allow: ['agent'] } },
      },
    },
    roles: { agent: { label: 'Agent' } },
    errors: { VISIT_OVERLAP: { status: 409, title: 'Visit overlap', message: 'The technician is busy then.' } },
    constants: { cancelledState: { value: 'cancelled' } },
  } as unknown as AppSpec;
}

const issuesOf = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);
const RANGE = ['startsAt', 'endsAt'];

describe('exclusive: ranges that may not overlap', () => {
  it('accepts one rule or a list, with a key, a literal condition and the catalogue code', () => {
    const where = { field: 'state', op: 'notIn', value: [{ $constant: 'cancelledState' }] };
    expect(issuesOf(specWith({ exclusive: { range: RANGE, per: 'technician', where, error: 'VISIT_OVERLAP' } }))).toEqual([]);
    expect(issuesOf(specWith({ exclusive: [{ range: RANGE }, { range: RANGE, per: ['technician', 'title'] }] }))).toEqual([]);
  });

  it('refuses a range that is not two date or two datetime fields of the entity', () => {
    const issues = issuesOf(
      specWith({
        exclusive: [
          { range: ['startsAt'] },
          { range: ['startsAt', 'nowhere'] },
          { range: ['title', 'endsAt'] },
          { range: ['startsAt', 'day'] },
          { range: ['startsAt', 'startsAt'] },
          { per: 'technician' },
        ],
      }),
    );
    expect(issues).toEqual([
      'entities.visit.exclusive[0].range: must be [start, end], two fields, got 1',
      'entities.visit.exclusive[1].range[1]: unknown field "nowhere" of visit (fields: title, technician, startsAt, endsAt, day, notes)',
      'entities.visit.exclusive[2].range[0]: "title" is a text field: a range runs between date or datetime fields',
      'entities.visit.exclusive[3].range: start and end must have one type, got datetime and date',
      'entities.visit.exclusive[4].range: start and end must be two different fields',
      'entities.visit.exclusive[5].range: is required: [start, end], two date or two datetime fields',
    ]);
  });

  it('refuses a key that is unknown, markdown or one of the range, and a condition the database cannot keep', () => {
    const issues = issuesOf(
      specWith({
        exclusive: [
          { range: RANGE, per: 'crew' },
          { range: RANGE, per: ['notes', 'startsAt'] },
          { range: RANGE, where: { field: 'startsAt', op: 'gt', value: { now: true } } },
          { range: RANGE, where: { field: 'technician.level', op: 'gt', value: 2 } },
        ],
      }),
    );
    expect(issues).toEqual([
      'entities.visit.exclusive[0].per: unknown field "crew" of visit (fields: title, technician, startsAt, endsAt, day, notes)',
      'entities.visit.exclusive[1].per[0]: a markdown field cannot be a key: an exclusion constraint holds columns of short values',
      'entities.visit.exclusive[1].per[1]: "startsAt" is the range\'s own field, not a key',
      "entities.visit.exclusive[2].where.value: an exclusive condition compares with literal values and constants only, got { now }: the database keeps the condition as the exclusion constraint's predicate, which cannot change with the time, the user or other records",
      'entities.visit.exclusive[3].where.field: an exclusive condition may only compare the fields and the state of visit, got "technician.level" (the database keeps the condition as the exclusion constraint\'s predicate)',
    ]);
  });

  it('refuses an unknown key of the rule and an error code not in the catalogue', () => {
    expect(issuesOf(specWith({ exclusive: { range: RANGE, error: 'NOPE', during: 1 } }))).toEqual([
      'entities.visit.exclusive.during: unknown key in an exclusive rule; expected one of range, per, where, message, error',
      'entities.visit.exclusive.error: unknown error code "NOPE" (not built in, not under errors)',
    ]);
  });

  it('fills the defaults: the message naming the key, the code, the range type and a constraint named after the table', () => {
    const model = buildModel(
      specWith({
        exclusive: [
          { range: RANGE, per: 'technician' },
          { range: RANGE, error: 'VISIT_OVERLAP' },
        ],
      }),
    );
    expect(model.entitiesByName.visit!.exclusive[0]).toMatchObject({
      start: 'startsAt',
      end: 'endsAt',
      rangeType: 'tstzrange',
      per: ['technician'],
      where: null,
      message: 'This technician already has a visit at that time.',
      code: 'VALIDATION_FAILED',
    });
    expect(model.entitiesByName.visit!.exclusive[0]!.constraint).toMatch(/^visit_ex_[0-9a-f]{10}$/);
    // The catalogue's message and status when the rule names its own code and no message.
    expect(model.entitiesByName.visit!.exclusive[1]).toMatchObject({
      message: 'The technician is busy then.',
      code: 'VISIT_OVERLAP',
      own: { status: 409, title: 'Visit overlap' },
    });
  });
});

describe('limits whose maximum is a field of the referenced record', () => {
  const limit = (max: unknown, per = 'event') => ({ limits: { seats: { max, per } } });

  it("accepts the per reference's integer field", () => {
    expect(issuesOf(specWith({}, limit({ field: 'event.capacity' })))).toEqual([]);
  });

  it('refuses a path not through per, through a user, to a field that is not an integer, or in another shape', () => {
    const cases: [unknown, string?][] = [
      [{ field: 'capacity' }],
      [{ field: 'technician.level' }],
      [{ field: 'event.room' }],
      [{ field: 'event.seats' }],
      [{ field: 'guest.level' }, 'guest'],
      [{ field: 'event.capacity', default: 3 }],
    ];
    const issues = cases.flatMap(([max, per]) => issuesOf(specWith({}, limit(max, per))));
    expect(issues).toEqual([
      'entities.booking.limits.seats.max.field: must be "<per>.<field>", a field of the record the limit counts for, got "capacity"',
      'entities.booking.limits.seats.max.field: "technician.level" must start with the limit\'s per ("event"): the maximum is a field of the record counted for',
      'entities.booking.limits.seats.max.field: "room" of event is a text field: a maximum is an integer field',
      'entities.booking.limits.seats.max.field: unknown field "seats" of event (fields: name, capacity, room)',
      'entities.booking.limits.seats.max.field: "guest" is not a reference field of booking: only a referenced record\'s field can hold a maximum',
      'entities.booking.limits.seats.max.default: unknown key in a maximum read from a field; expected one of field',
    ]);
  });
});
