/**
 * Exact fractions over BigInt, for computed numbers: decimals (stored and read as strings such as
 * "12.35") multiplied, added and divided in floating point would drift (0.1 + 0.2), and a total
 * that is off by a cent is wrong. Rounded once, at the end, to the field's scale.
 */
export interface Rational {
  /** Carries the sign. */
  readonly num: bigint;
  /** Always positive. */
  readonly den: bigint;
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** A number, or a decimal written as text ("-12.50", "1e-7"); null for anything else or an empty value. */
export function toRational(value: unknown): Rational | null {
  const text =
    typeof value === 'number' ? (Number.isFinite(value) ? String(value) : null) : typeof value === 'string' ? value.trim() : null;
  const match = text === null ? null : DECIMAL_TEXT.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return null;
  const [, sign, whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  const digits = BigInt(`${whole}${fraction}` || '0') * (sign === '-' ? -1n : 1n);
  return exponent >= 0 ? normalise(digits * 10n ** BigInt(exponent), 1n) : normalise(digits, 10n ** BigInt(-exponent));
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x === 0n ? 1n : x;
}

function normalise(num: bigint, den: bigint): Rational {
  const sign = den < 0n ? -1n : 1n;
  const divisor = gcd(num, den < 0n ? -den : den);
  return { num: (sign * num) / divisor, den: (sign * den) / divisor };
}

export function add(a: Rational, b: Rational): Rational {
  return normalise(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function subtract(a: Rational, b: Rational): Rational {
  return add(a, { num: -b.num, den: b.den });
}

export function multiply(a: Rational, b: Rational): Rational {
  return normalise(a.num * b.num, a.den * b.den);
}

/** Null when dividing by zero: the computed value is then empty. */
export function divide(a: Rational, b: Rational): Rational | null {
  return b.num === 0n ? null : normalise(a.num * b.den, a.den * b.num);
}

/** Rounded half away from zero to `scale` digits after the point: the digits scaled by 10^scale. */
function roundedUnits(value: Rational, scale: number): bigint {
  const scaled = value.num * 10n ** BigInt(scale);
  const magnitude = scaled < 0n ? -scaled : scaled;
  const units = (2n * magnitude + value.den) / (2n * value.den);
  return scaled < 0n ? -units : units;
}

/** As a decimal written with exactly `scale` digits after the point ("12.30"). */
export function toDecimalText(value: Rational, scale: number): string {
  const units = roundedUnits(value, scale);
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  const sign = units < 0n ? '-' : '';
  return scale === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** Rounded to a whole number (half away from zero). */
export function toInteger(value: Rational): number {
  return Number(roundedUnits(value, 0));
}

/** How many digits the whole part has (for a decimal column's precision). */
export function wholeDigits(text: string): number {
  return text
    .replace(/^-/, '')
    .split('.')[0]!
    .replace(/^0+(?=\d)/, '').length;
}
