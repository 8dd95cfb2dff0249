import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import { SpecError } from '../spec-error';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** A shop whose `order` has the fields given (besides the inputs every case uses). */
function shop(fields: Readonly<Record<string, unknown>>, constants: Readonly<Record<string, unknown>> = {}): AppSpec {
  return {
    name: 'shop',
    entities: {
      customer: { fields: { name: { type: 'text' }, account: { type: 'user' } } },
      order: {
        fields: {
          title: { type: 'text' },
          quantity: { type: 'integer' },
          unitPrice: { type: 'decimal' },
          startsAt: { type: 'datetime' },
          day: { type: 'date' },
          ...fields,
        },
      },
    },
    constants: { fee: { value: 4.95 }, days: { value: 3 }, label: { value: 'x' }, priority: { value: 'high' }, ...constants },
  } as unknown as AppSpec;
}

const issues = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);

describe('computed fields at load', () => {
  it('accepts arithmetic, a moved time and a slug, and makes them read-only (a slug unique)', () => {
    const spec = shop({
      total: {
        type: 'decimal',
        computed: { subtract: [{ multiply: [{ field: 'quantity' }, { field: 'unitPrice' }] }, { $constant: 'fee' }] },
      },
      packs: { type: 'integer', computed: { add: [{ field: 'quantity' }, 2] } },
      endsAt: { type: 'datetime', computed: { from: 'startsAt', plus: { hours: 1.5 } } },
      due: { type: 'date', computed: { from: 'day', minus: { days: { $constant: 'days' } } } },
      slug: { type: 'text', computed: { slug: 'title' } },
    });
    expect(issues(spec)).toEqual([]);
    const order = buildModel(spec).entitiesByName.order!;
    expect(order.fieldsByName.total).toMatchObject({ readOnly: true, computed: { kind: 'arithmetic', inputs: ['quantity', 'unitPrice'] } });
    expect(order.fieldsByName.due?.computed).toMatchObject({
      kind: 'shift',
      sign: -1,
      unit: 'days',
      amount: { kind: 'number', value: '3', constant: 'days' },
    });
    expect(order.fieldsByName.slug).toMatchObject({ readOnly: true, unique: true });
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'a type that does not fit',
      { type: 'text', computed: { add: [1, 2] } },
      'order.fields.x.computed: x is a text field, so it cannot be computed as arithmetic (a text field is computed as { slug })',
    ],
    [
      'division into an integer',
      { type: 'integer', computed: { divide: [{ field: 'quantity' }, 2] } },
      'computed.divide: division gives fractions, and x is an integer field: make it a decimal field',
    ],
    [
      'a decimal into an integer',
      { type: 'integer', computed: { add: [{ field: 'unitPrice' }, 1] } },
      '"unitPrice" is a decimal field, and x is an integer field',
    ],
    [
      'a fraction into an integer',
      { type: 'integer', computed: { add: [{ field: 'quantity' }, 0.5] } },
      '0.5 is not a whole number, and x is an integer field',
    ],
    [
      'an unknown field',
      { type: 'decimal', computed: { multiply: [{ field: 'qty' }, 2] } },
      '"qty" is not integer, decimal or money field of order',
    ],
    [
      'a constant that is not a number',
      { type: 'decimal', computed: { add: [{ $constant: 'label' }, 1] } },
      'the constant "label" is "x", not a number',
    ],
    ['a single term', { type: 'decimal', computed: { add: [1] } }, 'add takes a list of two or more terms'],
    [
      'two units',
      { type: 'datetime', computed: { from: 'startsAt', plus: { hours: 1, minutes: 2 } } },
      'a duration is exactly one of minutes, hours, days',
    ],
    ['a date moved by hours', { type: 'date', computed: { from: 'day', plus: { hours: 2 } } }, 'a date moves by whole days: use { days }'],
    ['a time from a date', { type: 'datetime', computed: { from: 'day', plus: { hours: 2 } } }, '"day" is not datetime field of order'],
    ['a slug of a number', { type: 'text', computed: { slug: 'quantity' } }, '"quantity" is not text field of order'],
    [
      'a default',
      { type: 'decimal', default: '1.00', computed: { add: [1, 2] } },
      'order.fields.x.default: a computed field takes no default',
    ],
    ['required', { type: 'decimal', required: true, computed: { add: [1, 2] } }, 'a computed field cannot be required'],
    ['a boolean', { type: 'boolean', computed: { add: [1, 2] } }, 'unknown key in a boolean field'],
  ])('refuses %s with a message naming the entity and field', (_, field, message) => {
    const found = issues(shop({ x: field }));
    expect(found.join('\n')).toContain(message);
    expect(() => buildModel(shop({ x: field }))).toThrow(SpecError);
  });

  it('refuses a computed field read by another computed field', () => {
    const found = issues(
      shop({
        total: { type: 'decimal', computed: { add: [{ field: 'quantity' }, 1] } },
        x: { type: 'decimal', computed: { add: [{ field: 'total' }, 1] } },
      }),
    );
    expect(found.join('\n')).toContain('"total" is itself computed; compute from stored fields');
  });
});

describe('defaults at load', () => {
  it('resolves a constant default and checks that its value fits the field', () => {
    const spec = shop({
      priority: { type: 'enum', values: ['low', 'high'], default: { $constant: 'priority' } },
      fee: { type: 'decimal', default: { $constant: 'fee' } },
    });
    expect(issues(spec)).toEqual([]);
    const order = buildModel(spec).entitiesByName.order!;
    expect(order.fieldsByName.priority?.defaultTo).toEqual({ kind: 'value', value: 'high', constant: 'priority' });
    expect(order.fieldsByName.fee?.defaultTo).toEqual({ kind: 'value', value: '4.95', constant: 'fee' });
    expect(issues(shop({ n: { type: 'integer', default: { $constant: 'label' } } }))).toEqual([
      'entities.order.fields.n.default: must be an integer, got "x"',
    ]);
    expect(issues(shop({ n: { type: 'integer', default: { $constant: 'nope' } } }))[0]).toContain(
      'entities.order.fields.n.default.$constant: unknown constant "nope"',
    );
  });

  it("accepts a reference defaulting to the actor's own record through a user field of the referenced entity", () => {
    const spec = shop({ customer: { type: 'reference', to: 'customer', default: { own: 'account' } } });
    expect(issues(spec)).toEqual([]);
    expect(buildModel(spec).entitiesByName.order!.fieldsByName.customer?.defaultTo).toEqual({
      kind: 'ownRecord',
      entity: 'customer',
      userField: 'account',
    });
    expect(issues(shop({ customer: { type: 'reference', to: 'customer', default: { own: 'name' } } }))).toEqual([
      'entities.order.fields.customer.default.own: "name" is not a user field of customer (user fields: account): the default is the customer whose user field is the actor',
    ]);
    expect(issues(shop({ customer: { type: 'reference', to: 'customer', default: 3 } }))[0]).toContain(
      "a reference defaults only to { own: '<user field of customer>' }",
    );
  });
});

describe('computed fields outside entities', () => {
  it("are refused on the spec's user fields and a call's fields", () => {
    const spec = {
      ...shop({}),
      users: { fields: { points: { type: 'integer', computed: { add: [1, 2] } } } },
      calls: {
        quote: {
          method: 'POST',
          path: '/quote',
          roles: ['admin'],
          input: { n: { type: 'integer', computed: { add: [1, 2] } } },
          handler: async () => null,
        },
      },
    } as unknown as AppSpec;
    const found = issues(spec);
    expect(found).toContain('users.fields.points.computed: administrators set every user field; none is computed');
    expect(found).toContain("calls.quote.input.n.computed: a call's fields are not computed");
  });
});
