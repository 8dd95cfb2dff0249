import { CsvError, parse } from 'csv-parse/sync';
import { NinefoldError } from '../errors/ninefold-error';

/** A data row of a file: its cells and the line it starts on (the header is line 1). */
export interface CsvRow {
  readonly line: number;
  readonly cells: readonly string[];
}

export interface CsvTable {
  readonly header: readonly string[];
  readonly rows: readonly CsvRow[];
}

const MEBIBYTE = 1024 * 1024;
const DELIMITERS = [',', ';', '\t'] as const;

function unreadable(message: string): NinefoldError {
  return new NinefoldError('UNSUPPORTED_MEDIA_TYPE', message);
}

export function sizeText(bytes: number): string {
  return bytes >= MEBIBYTE ? `${Math.round((bytes / MEBIBYTE) * 10) / 10} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The file's text: UTF-8 (a byte order mark is dropped), within `maxBytes`. Anything else is
 * refused with what to do about it: a workbook, UTF-16 or a legacy encoding is saved again as
 * "CSV UTF-8", the choice spreadsheets offer by that name.
 */
export function decodeCsv(bytes: Uint8Array, maxBytes: number): string {
  if (bytes.length > maxBytes) {
    throw new NinefoldError('PAYLOAD_TOO_LARGE', `The file is ${sizeText(bytes.length)}; at most ${sizeText(maxBytes)} can be imported at once. Split it into smaller files.`);
  }
  if (bytes.length === 0) throw unreadable('The file is empty.');
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    throw unreadable('This is a workbook (such as .xlsx), not CSV: save it as "CSV UTF-8" first.');
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw unreadable('The file is UTF-16 text: save it as "CSV UTF-8" and import that.');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw unreadable('The file is not UTF-8 text: save it as "CSV UTF-8" (in Excel: File › Save As › CSV UTF-8) and import that.');
  }
  if (text.includes('\u0000')) throw unreadable('The file has binary content: it is not CSV text.');
  return text;
}

/**
 * The separator of the file: a comma, or the semicolon or tab that spreadsheets write in some
 * languages, whichever the header line has most of (outside quotes).
 */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best: string = ',';
  for (const [delimiter, count] of counts) if (count > counts.get(best)!) best = delimiter;
  return best;
}

/** What the parser's complaints mean to whoever wrote the file. */
function parseProblem(error: CsvError): string {
  const line = (error as CsvError & { lines?: number }).lines;
  const at = line ? `Line ${line}: ` : '';
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `${at}a quoted value is never closed (a " is missing).`;
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return `${at}a quote inside a quoted value must be doubled ("").`;
    default:
      return `${at}${error.message}`;
  }
}

const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

const CR = 0x0d;
const LF = 0x0a;

/** Line breaks in bytes[from, to): CRLF, LF or a lone CR, each one. */
function lineBreaks(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    if (bytes[i] === LF || (bytes[i] === CR && bytes[i + 1] !== LF)) count++;
  }
  return count;
}

/** Where the record that ends at `end` starts, past the blank lines before it. */
function firstNonBreak(bytes: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end && (bytes[i] === CR || bytes[i] === LF)) i++;
  return i;
}

/**
 * Reads CSV text (RFC 4180: quoted values may hold separators, quotes doubled and line breaks)
 * into its header and data rows, each with the line it starts on, as a text editor counts them.
 * Blank lines, and rows whose cells are all empty (spreadsheets write those), are skipped.
 */
export function readCsv(text: string): CsvTable {
  // As bytes: the parser reports where each record ends as a byte offset.
  const bytes = Buffer.from(text, 'utf8');
  let records: { record: string[]; info: { bytes: number } }[];
  try {
    // With `info`, each record comes as { record, info } (the types do not follow the options).
    records = parse(bytes, { delimiter: detectDelimiter(text), bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as typeof records;
  } catch (error) {
    if (error instanceof CsvError) throw unreadable(parseProblem(error));
    throw error;
  }
  const [first, ...rest] = records;
  if (!first || isBlank(first.record)) throw unreadable('The file has no header row: its first line must name the columns.');
  const rows: CsvRow[] = [];
  let offset = first.info.bytes;
  let line = 1 + lineBreaks(bytes, 0, offset);
  for (const { record, info } of rest) {
    const start = firstNonBreak(bytes, offset, info.bytes);
    const startLine = line + lineBreaks(bytes, offset, start);
    line += lineBreaks(bytes, offset, info.bytes);
    offset = info.bytes;
    if (!isBlank(record)) rows.push({ line: startLine, cells: record });
  }
  return { header: first.record, rows };
}
