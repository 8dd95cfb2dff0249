import { describe, expect, it } from 'vitest';
import { NinefoldError } from '../errors/ninefold-error';
import { testModel } from '@testing/engine/ops';
import { neutralizeFormula, restoreFormula } from './formula';
import { cellInput } from './import-cells';
import { detectDelimiter, MAX_VALUES_PER_LINE, openCsv, type CsvRow, type CsvSource } from './read-csv';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('formula neutralisation', () => {
  it('prefixes cells a spreadsheet would run as formulas, and takes the prefix off on import', () => {
    for (const cell of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx', '=HYPERLINK("http://evil")']) {
      expect(neutralizeFormula(cell)).toBe(`'${cell}`);
      expect(restoreFormula(neutralizeFormula(cell))).toBe(cell);
    }
    for (const cell of ['plain', '', '-12', '+3.5', "'quoted", 'a=b']) expect(neutralizeFormula(cell)).toBe(cell);
    expect(restoreFormula("'hello")).toBe("'hello");
  });
});

/** The file's header and every data row, read as an import reads them. */
async function readAll(source: CsvSource, maxBytes = 1 << 20): Promise<{ header: readonly string[]; rows: CsvRow[] }> {
  const csv = await openCsv(source, maxBytes);
  const rows: CsvRow[] = [];
  for await (const batch of csv.rows) rows.push(...batch);
  return { header: csv.header, rows };
}
const refusalOf = async (source: CsvSource, maxBytes = 100) => {
  try {
    await readAll(source, maxBytes);
  } catch (error) {
    if (error instanceof NinefoldError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
};
/** The bytes in chunks of `size`, as a file on disk is read. */
const inChunks = (data: Uint8Array, size: number): CsvSource => ({
  size: data.length,
  chunks: (async function* () {
    for (let at = 0; at < data.length; at += size) yield data.slice(at, at + size);
  })(),
});

describe('reading a file', () => {
  it('refuses what is not CSV text, with what to do', async () => {
    expect(await refusalOf(new Uint8Array())).toBe('UNSUPPORTED_MEDIA_TYPE: The file is empty.');
    expect(await refusalOf(bytes('a'.repeat(2048)), 1024)).toBe(
      'PAYLOAD_TOO_LARGE: The file is 2 KB; at most 1 KB can be imported at once. Split it into smaller files.',
    );
    expect(await refusalOf(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]))).toMatch(/^UNSUPPORTED_MEDIA_TYPE: This is a workbook/);
    expect(await refusalOf(new Uint8Array([0xff, 0xfe, 0x61, 0x00]))).toMatch(/^UNSUPPORTED_MEDIA_TYPE: The file is UTF-16/);
    expect(await refusalOf(new Uint8Array([0x6e, 0x61, 0xef, 0x76, 0x65]))).toMatch(/^UNSUPPORTED_MEDIA_TYPE: The file is not UTF-8 text/);
    expect(await refusalOf(bytes('a,b\n\u0000\u0001'))).toMatch(/binary content/);
    expect(await refusalOf(bytes('name\n"unclosed\n'))).toBe(
      'UNSUPPORTED_MEDIA_TYPE: Line 2: a quoted value is never closed (a " is missing).',
    );
    expect(await refusalOf(bytes('\n\n'))).toMatch(/no header row/);
  });

  it('refuses a line of more values than any list has columns, before the parser gathers them', async () => {
    const wide = bytes(`name\nAcme\n"a,b",${','.repeat(MAX_VALUES_PER_LINE)}\n`);
    expect(await refusalOf(wide, 1 << 20)).toBe(
      `UNSUPPORTED_MEDIA_TYPE: Line 3: more than 1,000 values. Check the separator, or delete the empty columns on the right.`,
    );
    // Separators inside quotes are part of a value.
    const quoted = await readAll(bytes(`name\n"${','.repeat(MAX_VALUES_PER_LINE * 2)}"\n`));
    expect(quoted.rows).toHaveLength(1);
  });

  it('drops a byte order mark, finds the separator, and numbers each row by the line it starts on', async () => {
    expect(await readAll(bytes('\uFEFFname\nAcme'))).toEqual({ header: ['name'], rows: [{ line: 2, cells: ['Acme'] }] });
    expect(detectDelimiter('name;tier\nA,B;standard')).toBe(';');
    expect(detectDelimiter('"a;b",c\n')).toBe(',');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
    const table = await readAll(bytes('Subject,Description\r\nFirst,"two\r\nlines"\r\n\r\n,\r\nSecond,"say ""hi""",,\r\n'));
    expect(table.header).toEqual(['Subject', 'Description']);
    expect(table.rows).toEqual([
      { line: 2, cells: ['First', 'two\r\nlines'] },
      // Trailing empty cells (a spreadsheet's padding) are dropped.
      { line: 6, cells: ['Second', 'say "hi"'] },
    ]);
  });

  it('reads a file streamed in chunks of any size as it reads it whole (lines across chunk ends, CRLF split in two)', async () => {
    const text = `\uFEFFSubject;Description\r\n${Array.from({ length: 300 }, (_, i) => `Row ${i};"multi\r\nline ${'é'.repeat(i % 7)}"\r\n\r\n`).join('')}`;
    const whole = await readAll(bytes(text));
    expect(whole.rows).toHaveLength(300);
    expect(whole.rows[299]).toEqual({ line: 2 + 299 * 3, cells: ['Row 299', `multi\r\nline ${'é'.repeat(299 % 7)}`] });
    for (const size of [1, 2, 3, 7, 1000]) expect(await readAll(inChunks(bytes(text), size))).toEqual(whole);
  });

  it('stops reading when its reader stops, and lets go of the file', async () => {
    const many = bytes(`Subject\n${'x\n'.repeat(200_000)}`);
    let pulled = 0;
    const counted: CsvSource = {
      size: many.length,
      chunks: (async function* () {
        for (let at = 0; at < many.length; at += 1024) {
          pulled += 1024;
          yield many.slice(at, at + 1024);
        }
      })(),
    };
    const csv = await openCsv(counted, 1 << 20);
    let seen = 0;
    for await (const batch of csv.rows) if ((seen += batch.length) >= 10) break;
    await csv.close();
    expect(seen).toBeGreaterThanOrEqual(10);
    // The parser reads a little ahead, never the whole file.
    expect(pulled).toBeLessThan(many.length / 4);
  });
});

describe('cells as a form would take them', () => {
  const field = (entity: string, name: string) => testModel.entitiesByName[entity]!.fieldsByName[name]!;
  it('reads enums by label or value, dates and times as ISO or as the pages show them', () => {
    expect(cellInput(field('ticket', 'priority'), 'High')).toBe('high');
    expect(cellInput(field('ticket', 'priority'), 'urgent')).toBe('urgent');
    expect(cellInput(field('ticket', 'priority'), 'soon')).toBe('soon');
    expect(cellInput(field('contact', 'birthday'), 'Mar 1, 2025')).toBe('2025-03-01');
    expect(cellInput(field('contact', 'birthday'), '2025-03-01')).toBe('2025-03-01');
    expect(cellInput(field('ticket', 'dueAt'), 'Nov 24, 2030, 23:05 UTC')).toBe('2030-11-24T23:05:00Z');
    expect(cellInput(field('ticket', 'dueAt'), '2030-11-24 23:05')).toBe('2030-11-24T23:05Z');
    expect(cellInput(field('ticket', 'dueAt'), 'Nov 24, 2030, 23:05 UTC (overdue)')).toBe('2030-11-24T23:05:00Z');
    expect(cellInput(field('ticket', 'dueAt'), '2030-11-24')).toBe('2030-11-24T00:00Z');
    expect(cellInput(field('ticket', 'subject'), "'=1+1")).toBe('=1+1');
    expect(cellInput(field('ticket', 'subject'), '   ')).toBeUndefined();
  });
});
