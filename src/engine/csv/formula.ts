/*
 * Spreadsheet formula injection (OWASP "CSV Injection"): a cell that begins with =, +, -, @, a
 * tab or a carriage return may be run as a formula when the file is opened in a spreadsheet.
 * Exported cells that begin so are prefixed with a single quote, which spreadsheets show as text;
 * an import takes that quote off again, so a file exported and imported keeps its values.
 */

const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);
/** A plain number ("-12", "+3.5") is no formula: kept as is, so that spreadsheets still add it up. */
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?$/;

/** The cell as written to an exported file. */
export function neutralizeFormula(cell: string): string {
  return cell !== '' && TRIGGERS.has(cell.charAt(0)) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

/** The cell as an imported file means it: an export's protective quote taken off. */
export function restoreFormula(cell: string): string {
  return cell.length > 1 && cell.charAt(0) === "'" && TRIGGERS.has(cell.charAt(1)) ? cell.slice(1) : cell;
}
