import { isCurrency, isLocale } from '../../numbers/currency';
import { at, describeValue, isString, type Issues, type Rec, type Symbols } from './context';

const CURRENCY_EXAMPLES = '"EUR", "USD" or "JPY"';

/** purpose.locale and purpose.currency: ones Intl knows, so that no page fails later on a misspelt one. */
export function checkLocaleAndCurrency(purpose: Rec, issues: Issues): void {
  if (purpose.locale !== undefined && !isLocale(purpose.locale)) {
    issues.add('purpose.locale', `must be a locale such as "en-US", "de-DE" or "fr-FR", got ${describeValue(purpose.locale)}`);
  }
  if (purpose.currency !== undefined && !isCurrency(purpose.currency)) {
    issues.add(
      'purpose.currency',
      `must be an ISO 4217 currency code such as ${CURRENCY_EXAMPLES}, got ${describeValue(purpose.currency)}`,
    );
  }
}

/**
 * A money field's currency: its own, known to Intl, or the spec's default. Returns the currency
 * its amounts are in, or null when there is none to check against (already reported).
 */
export function checkFieldCurrency(field: Rec, path: string, symbols: Symbols, issues: Issues): string | null {
  const own = field.currency;
  if (own === undefined) {
    if (symbols.currency === undefined) {
      issues.add(
        at(path, 'currency'),
        `a money field needs a currency: set currency (e.g. "EUR") here, or purpose.currency for every money field of the spec`,
      );
    }
    return isCurrency(symbols.currency) ? symbols.currency : null;
  }
  if (isCurrency(own)) return own;
  issues.add(at(path, 'currency'), `must be an ISO 4217 currency code such as ${CURRENCY_EXAMPLES}, got ${describeValue(own)}`);
  return null;
}

/** The currency a money field of the spec holds amounts in, or null (not money, or no valid currency). */
export function currencyOf(field: Rec | undefined, symbols: Symbols): string | null {
  if (field?.type !== 'money') return null;
  const currency = field.currency ?? symbols.currency;
  return isString(currency) && isCurrency(currency) ? currency : null;
}
