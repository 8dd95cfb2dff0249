import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** Companies whose deals carry an amount of money; `purpose` and the fields vary per test. */
function spec(
  dealFields: Record<string, unknown>,
  purpose: Record<string, unknown> = {},
  companyFields: Record<string, unknown> = {},
): AppSpec {
  return {
    name: 'money',
    purpose: { title: 'Deals', ...purpose },
    entities: {
      company: { titleField: 'name', fields: { name: { type: 'text' }, ...companyFields } },
      deal: { titleField: 'title', fields: { title: { type: 'text' }, company: { type: 'reference', to: 'company' }, ...dealFields } },
    },
  } as unknown as AppSpec;
}

const messages = (s: AppSpec) => validateSpec(s).map((i) => `${i.path}: ${i.message}`);

describe('money fields at load', () => {
  it("takes the field's own currency, else the spec's, with the currency's digits after the point", () => {
    const model = buildModel(
      spec({ value: { type: 'money' }, yen: { type: 'money', currency: 'JPY', precision: 10 } }, { currency: 'EUR' }),
    );
    const deal = model.entitiesByName.deal!;
    expect(deal.fieldsByName.value).toMatchObject({ currency: 'EUR', decimal: { precision: 12, scale: 2 } });
    expect(deal.fieldsByName.yen).toMatchObject({ currency: 'JPY', decimal: { precision: 10, scale: 0 } });
    expect(model.locale).toBe('en-US');
  });

  it('refuses a money field without a currency, an unknown currency, locale or key', () => {
    expect(messages(spec({ value: { type: 'money' } }))).toEqual([
      'entities.deal.fields.value.currency: a money field needs a currency: set currency (e.g. "EUR") here, or purpose.currency for every money field of the spec',
    ]);
    expect(messages(spec({ value: { type: 'money', currency: 'eur', scale: 2 } }, { currency: 'EURO', locale: 'not a locale' }))).toEqual([
      'purpose.locale: must be a locale such as "en-US", "de-DE" or "fr-FR", got "not a locale"',
      'purpose.currency: must be an ISO 4217 currency code such as "EUR", "USD" or "JPY", got "EURO"',
      'entities.deal.fields.value.scale: unknown key in a money field; expected one of type, label, help, messages, required, readOnly, writtenBy, unique, searchable, currency, precision, min, max, default, computed, derived',
      'entities.deal.fields.value.currency: must be an ISO 4217 currency code such as "EUR", "USD" or "JPY", got "eur"',
    ]);
  });

  it("checks a default against the currency's digits, and the precision against them", () => {
    expect(
      messages(spec({ price: { type: 'money', currency: 'JPY', default: '12.5' }, fee: { type: 'money', currency: 'EUR', precision: 1 } })),
    ).toEqual([
      'entities.deal.fields.price.default: 12.5 does not fit decimal(12, 0)',
      "entities.deal.fields.fee.precision: precision 1 is less than the currency's 2 digits after the point",
    ]);
  });

  it('makes the sum of money money in the same currency, and refuses another currency or type', () => {
    const sum = (field: Record<string, unknown>) =>
      spec({ value: { type: 'money', currency: 'EUR' } }, {}, { open: { ...field, derived: { sum: 'deal.value' } } });
    expect(messages(sum({ type: 'money', currency: 'EUR' }))).toEqual([]);
    expect(messages(sum({ type: 'money', currency: 'USD' }))).toEqual([
      'entities.company.fields.open.derived: "deal.value" is money in EUR: declare the field\'s currency as "EUR", not "USD"',
    ]);
    expect(messages(sum({ type: 'decimal' }))).toEqual([
      'entities.company.fields.open.derived: the sum of "deal.value" is a money: declare the field as type "money", not "decimal"',
    ]);
  });

  it('computes money from numbers and money of its own currency only', () => {
    const computed = (currency: string) =>
      spec({
        net: { type: 'money', currency: 'EUR' },
        gross: { type: 'money', currency, computed: { multiply: [{ field: 'net' }, 1.2] } },
      });
    expect(messages(computed('EUR'))).toEqual([]);
    expect(messages(computed('USD'))).toEqual([
      'entities.deal.fields.gross.computed.multiply[0].field: "net" is money in EUR, and gross is money in USD',
    ]);
  });

  it('is named with its currency in the spec document, beside how pages write numbers', () => {
    const markdown = describeMarkdown(buildModel(spec({ value: { type: 'money' } }, { currency: 'EUR', locale: 'de-DE' })));
    expect(markdown).toContain('| `value` | money (EUR) |');
    expect(markdown).toContain('Numbers are shown the de-DE way (1.234,5; amounts 1.234,50\u00a0€)');
  });
});
