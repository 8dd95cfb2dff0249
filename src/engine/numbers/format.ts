import type { FieldModel } from '../spec/model';

/**
 * Numbers as pages write them, in the spec's locale (`purpose.locale`, the model's `locale`):
 * "9,485.65" and "€38,533.32" in en-US, "9.485,65" and "38.533,32 €" in de-DE. Formatted on the
 * server, so pages send text and no formatting code. CSV and the API carry the stored value
 * ("38533.32") instead: a file or a program reads numbers, not prose.
 */

/** How a number reads: an amount of a currency (with its own digits), or with `scale` digits after the point. */
export interface NumberShape {
  readonly currency?: string;
  readonly scale?: number;
}

const formats = new Map<string, Intl.NumberFormat>();

/** One formatter per locale and shape, made on first use (a server sees a handful). */
function numberFormat(locale: string, shape: NumberShape): Intl.NumberFormat {
  const key = `${locale} ${shape.currency ?? ''} ${shape.scale ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      locale,
      shape.currency
        ? { style: 'currency', currency: shape.currency }
        : { minimumFractionDigits: shape.scale ?? 0, maximumFractionDigits: shape.scale ?? 2 },
    );
    formats.set(key, format);
  }
  return format;
}

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * A number, or a decimal as stored ("38533.32"), as a page writes it; null for anything else. A
 * decimal is formatted from its text, so no digit is lost to a float.
 */
export function formatNumber(value: unknown, shape: NumberShape, locale: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? numberFormat(locale, shape).format(value) : null;
  // Intl reads a string of digits as the exact decimal it spells (ES2023), not through a float.
  if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return numberFormat(locale, shape).format(value as Intl.StringNumericLiteral);
  return null;
}

/** How a field's values read: money in its currency, a decimal with its scale, an integer whole; null for other fields. */
function shapeOf(field: Pick<FieldModel, 'type' | 'decimal' | 'currency'>): NumberShape | null {
  switch (field.type) {
    case 'money':
      return { currency: field.currency };
    case 'decimal':
      return { scale: field.decimal?.scale ?? 2 };
    case 'integer':
      return { scale: 0 };
    default:
      return null;
  }
}

/** A stored integer, decimal or money value as a page writes it; null when the field is not a number field or the value not a number. */
export function formatFieldNumber(field: Pick<FieldModel, 'type' | 'decimal' | 'currency'>, value: unknown, locale: string): string | null {
  const shape = shapeOf(field);
  return shape ? formatNumber(value, shape, locale) : null;
}

/**
 * A sum of a field (a home widget's total): money in its currency; any other sum, like a count,
 * with up to two decimals.
 */
export function formatSum(field: Pick<FieldModel, 'currency'> | undefined, value: number, locale: string): string {
  return formatNumber(value, field?.currency ? { currency: field.currency } : {}, locale) ?? String(value);
}

/** A count or a plain total: "1,234", "98,500.5". */
export function formatCount(value: number, locale: string): string {
  return formatNumber(value, {}, locale) ?? String(value);
}
