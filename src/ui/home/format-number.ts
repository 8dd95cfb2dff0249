const whole = new Intl.NumberFormat('en-US');
const money = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A count or a sum as people read it: "1,234", "98,500.5". */
export function formatNumber(value: number): string {
  return Number.isInteger(value) ? whole.format(value) : money.format(value);
}
