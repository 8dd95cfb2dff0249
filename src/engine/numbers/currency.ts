/**
 * Currencies and locales as Intl knows them, so that a spec naming one that a page could not
 * format is refused at load, and a currency's digits come from the same table that formats it.
 */

let currencies: ReadonlySet<string> | null = null;

/** An ISO 4217 code Intl knows ("EUR", "JPY"); upper case, as the standard writes them. */
export function isCurrency(code: unknown): code is string {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return typeof code === 'string' && currencies.has(code);
}

/** Digits after the point of a currency's minor unit: 2 for EUR, 0 for JPY, 3 for BHD. */
export function currencyScale(currency: string): number {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** The locale pages write numbers in when the spec names none. */
export const DEFAULT_LOCALE = 'en-US';

/** A BCP 47 tag Intl can format numbers in ("de-DE", "fr", "en-IN"). */
export function isLocale(tag: unknown): tag is string {
  if (typeof tag !== 'string' || tag === '') return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1 && Intl.NumberFormat.supportedLocalesOf(tag).length === 1;
  } catch {
    return false;
  }
}
