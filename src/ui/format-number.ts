import type { FieldModel } from '@/engine/spec/model';

/**
 * Numbers as pages write them, in the spec's locale (`purpose.locale`, the model's `locale`):
 * "9,485.65" and "€38,533.32" in en-US, "9.485,65" and "38.533,32 €" in de-DE. Formatted on the
 * server, so pages send text and no formatting code. CSV and the API carry the stored value
 * ("38533.32") instead: a file or a program reads numbers, not prose.
 */

/** The fields whose values are numbers to format: integer, decimal, money. */
type NumberField = Pick<FieldModel, 'type' | 'decimal' | 'currency'>;

const formats = new Map<string, Intl.NumberFormat>();

/** One formatter per locale and shape, made on first use (a server sees a handful). */
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** How a field's numbers read: a currency with its own digits, a decimal with its scale, a whole number. */
function optionsOf(field: NumberField): Intl.NumberFormatOptions {
  if (field.currency) return { style: 'currency', currency: field.currency };
  const scale = field.decimal?.scale ?? 0;
  return { minimumFractionDigits: scale, maximumFractionDigits: scale };
}

function isNumberField(field: Pick<FieldModel, 'type'>): boolean {
  return field.type === 'integer' || field.type === 'decimal' || field.type === 'money';
}

/**
 * A stored integer, decimal or money value as a page writes it; null when the field is not a
 * number field or the value is not a number. A decimal is formatted from its text, so no digit
 * is lost to a float.
 */
export function formatFieldNumber(field: NumberField, value: unknown, locale: string): string | null {
  if (!isNumberField(field)) return null;
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? value : null;
  if (number === null || (typeof number === 'number' && !Number.isFinite(number))) return null;
  // Intl reads a string of digits as the exact decimal it spells (ES2023), not through a float.
  return numberFormat(locale, optionsOf(field)).format(number as Intl.StringNumericLiteral);
}

/**
 * A sum of a field (a home widget's total): as the field's values read when it is money (in its
 * currency); otherwise as a count, with up to two decimals.
 */
export function formatSum(field: NumberField | undefined, value: number, locale: string): string {
  if (field?.currency) return numberFormat(locale, { style: 'currency', currency: field.currency }).format(value);
  return formatCount(value, locale);
}

/** A count or a plain total: "1,234", "98,500.5". */
export function formatCount(value: number, locale: string): string {
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(value);
}
