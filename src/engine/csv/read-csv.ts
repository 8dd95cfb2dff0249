import { CsvError, Parser } from 'csv-parse';
import { NinefoldError } from '../errors/ninefold-error';

/*
 * Reads an imported file as a stream of rows: the bytes are checked (size, encoding) and parsed
 * a chunk at a time, so that what the reader holds is the rows its caller keeps, never the
 * file's text or every row of it at once; a caller that stops reading (too many rows) stops the
 * parsing too.
 */

/** A data row of a file: its cells and the line it starts on (the header is line 1). */
export interface CsvRow {
  readonly line: number;
  readonly cells: readonly string[];
}

/** A file to import: its bytes received whole (an upload), or read in chunks (a file on disk). */
export type CsvSource = Uint8Array | { readonly size: number; readonly chunks: AsyncIterable<Uint8Array> };

/** An open file: its header row, then its data rows in batches as they are read. `close` stops reading early. */
export interface CsvReader {
  readonly header: readonly string[];
  readonly rows: AsyncIterable<readonly CsvRow[]>;
  close(): Promise<void>;
}

const MEBIBYTE = 1024 * 1024;
const DELIMITERS = [',', ';', '\t'] as const;
/** The parser is given the file this much at a time: a slice of work that never holds the event loop long. */
const CHUNK_BYTES = 16 * 1024;
/**
 * More values than this on one line fit no entity's columns: a wrong separator, or a
 * spreadsheet's empty columns far to the right. Refused before the parser gathers them.
 */
export const MAX_VALUES_PER_LINE = 1000;

const CR = 0x0d;
const LF = 0x0a;
const QUOTE = 0x22;

const NOT_UTF8 = 'The file is not UTF-8 text: save it as "CSV UTF-8" (in Excel: File › Save As › CSV UTF-8) and import that.';

function unreadable(message: string): NinefoldError {
  return new NinefoldError('UNSUPPORTED_MEDIA_TYPE', message);
}

export function sizeText(bytes: number): string {
  return bytes >= MEBIBYTE ? `${Math.round((bytes / MEBIBYTE) * 10) / 10} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function tooLarge(bytes: number, maxBytes: number): NinefoldError {
  return new NinefoldError(
    'PAYLOAD_TOO_LARGE',
    `The file is ${sizeText(bytes)}; at most ${sizeText(maxBytes)} can be imported at once. Split it into smaller files.`,
  );
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

/** The source in chunks of at most CHUNK_BYTES (views, not copies). */
async function* chunksOf(source: CsvSource): AsyncGenerator<Uint8Array> {
  const pieces = source instanceof Uint8Array ? [source] : source.chunks;
  for await (const piece of pieces) {
    for (let at = 0; at < piece.length; at += CHUNK_BYTES) yield piece.subarray(at, at + CHUNK_BYTES);
  }
}

/**
 * Counts the values of each line as the bytes go by (quotes respected), ahead of the parser, which
 * would otherwise gather a line of a million empty values before anyone could look at it.
 */
class ValuesPerLine {
  private readonly delimiter: number;
  private quoted = false;
  private values = 1;
  private line = 1;
  private afterCr = false;

  constructor(delimiter: string) {
    this.delimiter = delimiter.charCodeAt(0);
  }

  feed(chunk: Uint8Array): void {
    // Locals in the loop, written back at the end: this runs for every byte of the file.
    let { quoted, values, line, afterCr } = this;
    const delimiter = this.delimiter;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === CR || (byte === LF && !afterCr)) line++;
      afterCr = byte === CR;
      if (byte === QUOTE) quoted = !quoted;
      else if (quoted) continue;
      else if (byte === CR || byte === LF) values = 1;
      else if (byte === delimiter && ++values > MAX_VALUES_PER_LINE) {
        throw unreadable(
          `Line ${line}: more than ${MAX_VALUES_PER_LINE.toLocaleString('en-US')} values. Check the separator, or delete the empty columns on the right.`,
        );
      }
    }
    Object.assign(this, { quoted, values, line, afterCr });
  }
}

/**
 * The file's bytes, checked as they pass: within `maxBytes`, UTF-8 (a byte order mark is
 * dropped), no binary content, no line with too many values. Anything else is refused with what
 * to do about it: a workbook, UTF-16 or a legacy encoding is saved again as "CSV UTF-8", the
 * choice spreadsheets offer by that name. `onDelimiter` is told the separator, found in the
 * header line, before the first bytes go on.
 */
async function* checkedBytes(source: CsvSource, maxBytes: number, onDelimiter: (delimiter: string) => void): AsyncGenerator<Uint8Array> {
  const size = source instanceof Uint8Array ? source.length : source.size;
  if (size > maxBytes) throw tooLarge(size, maxBytes);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let total = 0;
  let values: ValuesPerLine | null = null;
  /** The first chunks, until there is enough to see what kind of file this is. */
  let head: Uint8Array[] | null = [];
  let headBytes = 0;

  const pass = (chunk: Uint8Array): Uint8Array => {
    if (chunk.includes(0)) throw unreadable('The file has binary content: it is not CSV text.');
    try {
      utf8.decode(chunk, { stream: true });
    } catch {
      throw unreadable(NOT_UTF8);
    }
    values!.feed(chunk);
    return chunk;
  };
  /** The first bytes say what kind of file this is; the header line, which separator. */
  const opening = (bytes: Uint8Array): Uint8Array => {
    if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
      throw unreadable('This is a workbook (such as .xlsx), not CSV: save it as "CSV UTF-8" first.');
    }
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
      throw unreadable('The file is UTF-16 text: save it as "CSV UTF-8" and import that.');
    }
    const text = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
    const delimiter = detectDelimiter(new TextDecoder().decode(text));
    values = new ValuesPerLine(delimiter);
    onDelimiter(delimiter);
    return text;
  };

  for await (const chunk of chunksOf(source)) {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge(total, maxBytes);
    if (head === null) {
      yield pass(chunk);
      continue;
    }
    head.push(chunk);
    headBytes += chunk.length;
    if (headBytes < CHUNK_BYTES) continue;
    const first = opening(Buffer.concat(head));
    head = null;
    yield pass(first);
  }
  if (total === 0) throw unreadable('The file is empty.');
  if (head !== null) yield pass(opening(Buffer.concat(head)));
  try {
    utf8.decode();
  } catch {
    throw unreadable(NOT_UTF8);
  }
}

/**
 * Which line each record starts on, as a text editor counts them: the bytes are counted up to
 * where the parser says each record ends, past the blank lines before it. Holds the chunks the
 * parser has taken but the count has not reached yet.
 */
class LineCounter {
  private readonly chunks: Uint8Array[] = [];
  /** Where the count is: in the first chunk held, and in the file. */
  private at = 0;
  private offset = 0;
  private line = 1;
  private afterCr = false;

  hold(chunk: Uint8Array): void {
    this.chunks.push(chunk);
  }

  /** Counts up to `end` (a byte offset); returns the line of the first byte on the way that is not a line break. */
  recordEndingAt(end: number): number {
    let start: number | null = null;
    let { line, afterCr } = this;
    while (this.offset < end) {
      const chunk = this.chunks[0];
      if (chunk === undefined) break;
      const from = this.at;
      const stop = Math.min(chunk.length, from + (end - this.offset));
      for (let i = from; i < stop; i++) {
        const byte = chunk[i];
        if (byte === CR) line++;
        else if (byte === LF) {
          if (!afterCr) line++;
        } else if (start === null) start = line;
        afterCr = byte === CR;
      }
      this.offset += stop - from;
      this.at = stop;
      if (stop === chunk.length) {
        this.chunks.shift();
        this.at = 0;
      }
    }
    this.line = line;
    this.afterCr = afterCr;
    return start ?? line;
  }
}

/** csv-parse's chunk parser: records go to `push` as each ends; `info.bytes` is then where it ends in the file. */
interface ChunkParser {
  parse(chunk: Buffer | undefined, end: boolean, push: (record: string[]) => void, close: () => void): CsvError | undefined;
  readonly info: { readonly bytes: number };
}

/**
 * The parser inside csv-parse's stream class, driven a chunk at a time as its own sync API drives
 * it: the stream around it would cost a promise (and an info object) per row, which for a file of
 * short rows is most of the work and most of the garbage.
 */
function chunkParser(delimiter: string): ChunkParser {
  return (new Parser({ delimiter, relax_column_count: true, skip_empty_lines: true }) as unknown as { readonly api: ChunkParser }).api;
}

/** Blank lines, and rows whose cells are all empty (spreadsheets write those), are skipped; trailing empty cells are dropped. */
function trimmed(row: CsvRow): CsvRow | null {
  let end = row.cells.length;
  while (end > 0 && row.cells[end - 1]?.trim() === '') end--;
  if (end === 0) return null;
  return end === row.cells.length ? row : { line: row.line, cells: row.cells.slice(0, end) };
}

/**
 * Opens a file for import: RFC 4180 CSV (quoted values may hold separators, quotes doubled and
 * line breaks), read up to its header row. Its data rows then come in batches, a chunk of the file
 * at a time, each row with the line it starts on. File-level problems are thrown as catalogue
 * errors: PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE (see checkedBytes, and broken quoting).
 */
export async function openCsv(source: CsvSource, maxBytes: number): Promise<CsvReader> {
  let parser: ChunkParser | null = null;
  const checked = checkedBytes(source, maxBytes, (delimiter) => (parser = chunkParser(delimiter)));
  const lines = new LineCounter();
  const parsed = (async function* (): AsyncGenerator<CsvRow[]> {
    let batch: CsvRow[] = [];
    const push = (record: string[]) => batch.push({ line: lines.recordEndingAt(parser!.info.bytes), cells: record });
    const parse = (chunk: Uint8Array | undefined) => {
      const error = parser!.parse(
        chunk && Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length),
        chunk === undefined,
        push,
        () => undefined,
      );
      if (error) throw error instanceof CsvError ? unreadable(parseProblem(error)) : error;
      const rows = batch;
      batch = [];
      return rows;
    };
    for await (const chunk of checked) {
      lines.hold(chunk);
      yield parse(chunk);
    }
    yield parse(undefined);
  })();

  let header: CsvRow | undefined;
  let first: CsvRow[] = [];
  while (header === undefined) {
    const next = await parsed.next();
    if (next.done) break;
    [header, ...first] = next.value;
  }
  if (header === undefined || isBlank(header.cells)) {
    await parsed.return(undefined);
    throw unreadable('The file has no header row: its first line must name the columns.');
  }
  const rows = (async function* (): AsyncGenerator<CsvRow[]> {
    for (let batch: CsvRow[] | undefined = first; batch !== undefined; batch = (await parsed.next()).value ?? undefined) {
      const kept = batch.flatMap((row) => trimmed(row) ?? []);
      if (kept.length > 0) yield kept;
    }
  })();
  return {
    header: header.cells,
    rows,
    close: async () => {
      await rows.return(undefined);
      await parsed.return(undefined);
    },
  };
}
