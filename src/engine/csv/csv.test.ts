import { describe, expect, it } from 'vitest';
import { NinefoldError } from '../errors/ninefold-error';
import { testModel } from '../ops/testing';
import { neutralizeFormula, restoreFormula } from './formula';
import { cellInput } from './import-cells';
import { decodeCsv, detectDelimiter, readCsv } from './read-csv';

const bytes = (text: string) => new TextEncoder().encode(text);
const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof NinefoldError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
};

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

describe('reading a file', () => {
  it('refuses what is not CSV text, with what to do', () => {
    expect(codeOf(() => decodeCsv(new Uint8Array(), 100))).toBe('UNSUPPORTED_MEDIA_TYPE: The file is empty.');
    expect(codeOf(() => decodeCsv(bytes('a'.repeat(2048)), 1024))).toBe('PAYLOAD_TOO_LARGE: The file is 2 KB; at most 1 KB can be imported at once. Split it into smaller files.');
    expect(codeOf(() => decodeCsv(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]), 100))).toMatch(/^UNSUPPORTED_MEDIA_TYPE: This is a workbook/);
    expect(codeOf(() => decodeCsv(new Uint8Array([0xff, 0xfe, 0x61, 0x00]), 100))).toMatch(/^UNSUPPORTED_MEDIA_TYPE: The file is UTF-16/);
    expect(codeOf(() => decodeCsv(new Uint8Array([0x6e, 0x61, 0xef, 0x76, 0x65]), 100))).toMatch(/^UNSUPPORTED_MEDIA_TYPE: The file is not UTF-8 text/);
    expect(codeOf(() => decodeCsv(bytes('a,b\n\u0000\u0001'), 100))).toMatch(/binary content/);
    expect(codeOf(() => readCsv('name\n"unclosed\n'))).toBe('UNSUPPORTED_MEDIA_TYPE: Line 2: a quoted value is never closed (a " is missing).');
    expect(codeOf(() => readCsv('\n\n'))).toMatch(/no header row/);
  });

  it('drops a byte order mark, finds the separator, and numbers each row by the line it starts on', () => {
    expect(decodeCsv(bytes('\uFEFFname\nAcme'), 100)).toBe('name\nAcme');
    expect(detectDelimiter('name;tier\nA,B;standard')).toBe(';');
    expect(detectDelimiter('"a;b",c\n')).toBe(',');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
    const table = readCsv('Subject,Description\r\nFirst,"two\r\nlines"\r\n\r\n,\r\nSecond,"say ""hi"""\r\n');
    expect(table.header).toEqual(['Subject', 'Description']);
    expect(table.rows).toEqual([
      { line: 2, cells: ['First', 'two\r\nlines'] },
      { line: 6, cells: ['Second', 'say "hi"'] },
    ]);
  });
});

describe('cells as a form would take them', () => {
  const field = (entity: string, name: string) => testModel.entitiesByName[entity].fieldsByName[name];
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
