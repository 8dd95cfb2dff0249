import { describe, expect, it } from 'vitest';
import type { FieldModel } from '../spec/model';
import { buildField } from '../spec/build';
import type { AppSpec, FieldSpec } from '../spec/types';
import { fieldSchema, firstIssue, issueCode, issueMessage, type StoredValue } from './field-schema';

/** The field as buildModel makes it (defaults filled, constants resolved), named "value". */
function fieldOf(spec: FieldSpec, label = 'Value', constants: Readonly<Record<string, { value: unknown }>> = {}): FieldModel {
  return { ...buildField('value', spec, constants as AppSpec['constants']), label };
}

type Outcome = { ok: true; value: StoredValue } | { ok: false; code: string; message: string };

function parse(spec: FieldSpec, raw: unknown, constants: Record<string, { value: unknown }> = {}): Outcome {
  const result = fieldSchema(fieldOf(spec, 'Value', constants)).safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  const issue = firstIssue(result.error);
  return { ok: false, code: issueCode(issue), message: issueMessage(issue) };
}

/** Each raw input and the value stored for it. */
function accepts(spec: FieldSpec, cases: [unknown, StoredValue][], constants?: Record<string, { value: unknown }>) {
  for (const [raw, stored] of cases) {
    expect(parse(spec, raw, constants), `${spec.type} ${JSON.stringify(raw)}`).toEqual({ ok: true, value: stored });
  }
}

/** Each raw input and the code (and, when given, the message) it is refused with. */
function refuses(spec: FieldSpec, cases: [unknown, string, string?][], constants?: Record<string, { value: unknown }>) {
  for (const [raw, code, message] of cases) {
    const outcome = parse(spec, raw, constants);
    expect(outcome, `${spec.type} ${String(raw)}`).toMatchObject({ ok: false, code, ...(message ? { message } : {}) });
    if (!outcome.ok) expect(outcome.message).toMatch(/^Value /);
  }
}

describe('fieldSchema', () => {
  describe('every type', () => {
    const specs: FieldSpec[] = [
      { type: 'text' },
      { type: 'markdown' },
      { type: 'integer' },
      { type: 'decimal' },
      { type: 'boolean' },
      { type: 'enum', values: ['a', 'b'] },
      { type: 'date' },
      { type: 'datetime' },
      { type: 'email' },
      { type: 'url' },
      { type: 'reference', to: 'organization' },
      { type: 'user' },
    ];

    it('stores null for an empty string, blanks, null and absent', () => {
      for (const spec of specs)
        accepts(spec, [
          ['', null],
          ['   ', null],
          [null, null],
          [undefined, null],
        ]);
    });

    it('refuses an empty value of a required field with "required"', () => {
      for (const spec of specs) {
        refuses({ ...spec, required: true } as FieldSpec, [
          ['', 'required', 'Value is required.'],
          [' ', 'required'],
          [null, 'required'],
          [undefined, 'required'],
        ]);
      }
    });
  });

  it('text: keeps the text as given, checks its length, pattern and host name format', () => {
    const spec: FieldSpec = { type: 'text', minLength: 2, maxLength: 5 };
    accepts(spec, [
      ['ab', 'ab'],
      ['abcde', 'abcde'],
      [' ab ', ' ab '],
      ['été', 'été'],
    ]);
    refuses(spec, [
      ['a', 'too_small', 'Value must be at least 2 characters.'],
      ['abcdef', 'too_big', 'Value must be at most 5 characters.'],
      [42, 'invalid_type', 'Value must be text.'],
      [true, 'invalid_type'],
      [['ab'], 'invalid_type'],
    ]);
    const pattern: FieldSpec = { type: 'text', pattern: '^[A-Z]{3}-\\d+$', patternMessage: 'Value is like ABC-12.' };
    accepts(pattern, [['ABC-12', 'ABC-12']]);
    refuses(pattern, [['abc-12', 'pattern', 'Value is like ABC-12.']]);
    refuses({ type: 'text', pattern: '^\\d+$' }, [['x', 'pattern', 'Value has the wrong format.']]);
    const hostname: FieldSpec = { type: 'text', format: 'hostname' };
    accepts(hostname, [
      ['example.com', 'example.com'],
      ['mail.Example.co.uk', 'mail.Example.co.uk'],
      ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ]);
    refuses(hostname, [
      ['localhost', 'pattern', 'Value must be a host name such as example.com.'],
      ['-bad.example.com', 'pattern'],
      ['bad-.example.com', 'pattern'],
      ['exa mple.com', 'pattern'],
      ['https://example.com', 'pattern'],
      [`${'a'.repeat(64)}.com`, 'pattern'],
    ]);
  });

  it('markdown: any text within its length', () => {
    const spec: FieldSpec = { type: 'markdown', maxLength: 20 };
    accepts(spec, [['# Title\n\n*text*', '# Title\n\n*text*']]);
    refuses(spec, [
      ['x'.repeat(21), 'too_big', 'Value must be at most 20 characters.'],
      [{}, 'invalid_type'],
    ]);
  });

  it('text and markdown: line breaks stored as "\\n" whatever the door sent, and counted so', () => {
    for (const type of ['text', 'markdown'] as const) {
      const spec: FieldSpec = { type, maxLength: 5 };
      // A form posts "\r\n" (HTML's rule for textareas); old Macs wrote a lone "\r".
      accepts(spec, [
        ['a\r\nb', 'a\nb'],
        ['a\rb\nc', 'a\nb\nc'],
        ['ab\r\n\r\nc', 'ab\n\nc'],
      ]);
      // Five characters once normalised, seven as posted.
      expect(parse(spec, 'a\r\nb\r\nc')).toEqual({ ok: true, value: 'a\nb\nc' });
      refuses(spec, [['a\r\nb\r\ncd', 'too_big']]);
    }
  });

  it('integer: whole numbers from forms and JSON, within int4 and the declared range', () => {
    const spec: FieldSpec = { type: 'integer', min: 0, max: 10 };
    accepts(spec, [
      ['7', 7],
      [' 8 ', 8],
      ['0', 0],
      [10, 10],
      ['10.0', 10],
    ]);
    refuses(spec, [
      ['11', 'too_big', 'Value must be between 0 and 10.'],
      [-1, 'too_small', 'Value must be between 0 and 10.'],
      ['1.5', 'invalid_type', 'Value must be a whole number.'],
      [1.5, 'invalid_type'],
      ['seven', 'invalid_type'],
      ['1e3', 'invalid_type'],
      [true, 'invalid_type'],
      [Number.NaN, 'invalid_type'],
    ]);
    refuses({ type: 'integer' }, [
      [2147483648, 'too_big', 'Value is too large.'],
      [-2147483649, 'too_small', 'Value is too small.'],
      [Number.POSITIVE_INFINITY, 'invalid_type'],
    ]);
    accepts({ type: 'integer' }, [[-2147483648, -2147483648]]);
    // Bounds may be business constants.
    const constants = { minimum: { value: 5 } };
    refuses({ type: 'integer', min: { $constant: 'minimum' } }, [['4', 'too_small', 'Value must be at least 5.']], constants);
    accepts({ type: 'integer', min: { $constant: 'minimum' } }, [['5', 5]], constants);
    refuses({ type: 'integer', max: 3 }, [['4', 'too_big', 'Value must be at most 3.']]);
  });

  it('decimal: kept as exact text, within its precision, scale and range', () => {
    const spec: FieldSpec = { type: 'decimal', precision: 6, scale: 2 };
    accepts(spec, [
      ['12.5', '12.5'],
      [' 3 ', '3'],
      [12.25, '12.25'],
      ['-0.5', '-0.5'],
      ['9999.99', '9999.99'],
      ['0009999', '0009999'],
    ]);
    refuses(spec, [
      ['1.234', 'invalid', 'Value can have at most 2 decimal places.'],
      ['12345.6', 'invalid', 'Value is too large.'],
      ['ten', 'pattern', 'Value must be a number.'],
      ['1e5', 'pattern'],
      ['.5', 'pattern'],
      ['1,5', 'pattern'],
      [Number.NaN, 'invalid_type'],
      [true, 'invalid_type'],
    ]);
    refuses({ type: 'decimal', min: 1, max: 2 }, [
      ['2.01', 'too_big', 'Value must be between 1 and 2.'],
      ['0.99', 'too_small', 'Value must be between 1 and 2.'],
    ]);
    accepts({ type: 'decimal' }, [['1234567890.12', '1234567890.12']]);
  });

  it('boolean: checkbox and word forms, and JSON booleans', () => {
    const spec: FieldSpec = { type: 'boolean' };
    accepts(spec, [
      ['on', true],
      ['true', true],
      ['TRUE', true],
      ['1', true],
      ['yes', true],
      [true, true],
      ['off', false],
      ['false', false],
      ['0', false],
      ['no', false],
      [false, false],
    ]);
    refuses(spec, [
      ['maybe', 'invalid_type', 'Value must be yes or no.'],
      [1, 'invalid_type'],
    ]);
  });

  it('enum: one of the declared values, exactly', () => {
    const spec: FieldSpec = { type: 'enum', values: ['low', 'high'] };
    accepts(spec, [
      ['low', 'low'],
      ['high', 'high'],
    ]);
    refuses(spec, [
      ['LOW', 'invalid_value', 'Value must be one of: low, high.'],
      ['medium', 'invalid_value'],
      [1, 'invalid_value'],
    ]);
  });

  it('date: a calendar day as YYYY-MM-DD text', () => {
    const spec: FieldSpec = { type: 'date' };
    accepts(spec, [
      ['2030-01-02', '2030-01-02'],
      ['2024-02-29', '2024-02-29'],
    ]);
    refuses(spec, [
      ['2030-02-30', 'invalid_date', 'Value must be a date (YYYY-MM-DD).'],
      ['2023-02-29', 'invalid_date'],
      ['2030-1-2', 'invalid_date'],
      ['2030-01-02T10:00', 'invalid_date'],
      ['02/01/2030', 'invalid_date'],
      [new Date('2030-01-02'), 'invalid_type'],
    ]);
  });

  it('datetime: a local time as UTC, a time with a zone, a Date', () => {
    const spec: FieldSpec = { type: 'datetime' };
    accepts(spec, [
      ['2030-01-02T10:30', new Date('2030-01-02T10:30:00.000Z')],
      ['2030-01-02T10:30:15', new Date('2030-01-02T10:30:15.000Z')],
      ['2030-01-02T10:30:15.5', new Date('2030-01-02T10:30:15.500Z')],
      ['2030-01-02T10:30:15.123456Z', new Date('2030-01-02T10:30:15.123Z')],
      ['2030-01-02T10:30:00Z', new Date('2030-01-02T10:30:00.000Z')],
      ['2030-01-02T10:30:00.000+02:00', new Date('2030-01-02T08:30:00.000Z')],
      ['2030-01-02T00:30-0130', new Date('2030-01-02T02:00:00.000Z')],
      ['2030-01-01T00:30+01:00', new Date('2029-12-31T23:30:00.000Z')],
      ['2024-02-29T23:59:59', new Date('2024-02-29T23:59:59.000Z')],
      ['2000-02-29T00:00', new Date('2000-02-29T00:00:00.000Z')],
      [new Date('2030-05-06T07:08:09.010Z'), new Date('2030-05-06T07:08:09.010Z')],
    ]);
    refuses(spec, [
      ['2030-02-30T10:00', 'invalid_type', 'Value must be a date and time.'],
      ['2023-02-29T10:00', 'invalid_type'],
      ['1900-02-29T10:00', 'invalid_type'],
      ['2030-13-01T10:00', 'invalid_type'],
      ['2030-01-02T24:00', 'invalid_type'],
      ['2030-01-02T10:60', 'invalid_type'],
      ['2030-01-02T10:30:61', 'invalid_type'],
      ['2030-01-02T10:30+25:00', 'invalid_type'],
      ['2030-01-02', 'invalid_type'],
      ['2030-01-02 10:30', 'invalid_type'],
      ['tomorrow', 'invalid_type'],
      [1893580200000, 'invalid_type'],
      [new Date('not a date'), 'invalid_type'],
      ['0000-01-01T00:00', 'invalid', 'Value is out of range.'],
    ]);
  });

  it('email: an address, kept as given', () => {
    const spec: FieldSpec = { type: 'email' };
    accepts(spec, [
      ['ada@example.com', 'ada@example.com'],
      ['Ada.Lovelace+help@mail.example.co.uk', 'Ada.Lovelace+help@mail.example.co.uk'],
    ]);
    refuses(spec, [
      ['ada', 'invalid_email', 'Value must be an email address.'],
      ['ada@example', 'invalid_email'],
      ['ada @example.com', 'invalid_email'],
      ['@example.com', 'invalid_email'],
      [42, 'invalid_type'],
    ]);
  });

  it('url: an http or https address', () => {
    const spec: FieldSpec = { type: 'url' };
    accepts(spec, [
      ['https://example.com/path?q=1#top', 'https://example.com/path?q=1#top'],
      ['http://localhost:3000', 'http://localhost:3000'],
    ]);
    refuses(spec, [
      ['example.com', 'invalid_url', 'Value must be a web address starting with http:// or https://.'],
      ['ftp://example.com', 'invalid_url'],
      ['javascript:alert(1)', 'invalid_url'],
      ['mailto:ada@example.com', 'invalid_url'],
      [`https://example.com/${'x'.repeat(2048)}`, 'too_big', 'Value is too long.'],
    ]);
  });

  it('reference and user: the positive id of a record, as text or number', () => {
    for (const spec of [{ type: 'reference', to: 'organization' }, { type: 'user' }] as FieldSpec[]) {
      accepts(spec, [
        ['12', 12],
        [12, 12],
        [' 7 ', 7],
        [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
      ]);
      refuses(spec, [
        ['0', 'too_small', 'Value must be the id of a record.'],
        [-1, 'too_small'],
        ['abc', 'invalid_type', 'Value must be the id of a record.'],
        [1.5, 'invalid_type'],
        ['1.5', 'invalid_type'],
        [2 ** 60, 'too_big', 'Value must be the id of a record.'],
        [true, 'invalid_type'],
      ]);
    }
  });
});

describe('agreeing with JSON Schema (the OpenAPI document)', () => {
  it('counts lengths in characters, so two emoji are two characters', () => {
    refuses({ type: 'text', minLength: 3 }, [['😀😀', 'too_small', 'Value must be at least 3 characters.']]);
    accepts({ type: 'text', maxLength: 2 }, [['😀😀', '😀😀']]);
    refuses({ type: 'text', maxLength: 2 }, [['😀😀😀', 'too_big']]);
  });

  it('refuses web addresses with spaces, raw non-ASCII or broken escapes', () => {
    for (const bad of ['https://example.com/a b', 'https://exämple.com/', 'https://example.com/%zz']) {
      expect(parse({ type: 'url' }, bad).ok, bad).toBe(false);
    }
    accepts({ type: 'url' }, [['https://example.com/a%20b?x=1#top', 'https://example.com/a%20b?x=1#top']]);
  });
});

describe('NUL characters, which PostgreSQL text cannot hold', () => {
  it('are refused in every text-like field with a field error, never sent to the database', () => {
    for (const spec of [{ type: 'text' }, { type: 'markdown' }, { type: 'enum', values: ['a\u0000'] }] as FieldSpec[]) {
      expect(parse(spec, 'a\u0000')).toMatchObject({ ok: false, code: 'invalid_character' });
    }
  });
});

describe("the spec's own messages", () => {
  const spec: FieldSpec = {
    type: 'text',
    required: true,
    minLength: 3,
    pattern: '^[A-Z]',
    messages: { required: 'Tell us what went wrong.', too_small: 'A few more words, please.', pattern: 'Start with a capital.' },
  };
  const message = (raw: unknown) => {
    const result = fieldSchema(fieldOf(spec)).safeParse(raw);
    return result.success ? null : issueMessage(firstIssue(result.error), fieldOf(spec));
  };

  it('replace the built-in message of their kind, and only of that kind', () => {
    expect(message('')).toBe('Tell us what went wrong.');
    expect(message('Ab')).toBe('A few more words, please.');
    expect(message('abc')).toBe('Start with a capital.');
    expect(message(42)).toBe('Value must be text.');
    expect(message('Abc')).toBeNull();
  });

  it('replace the range messages of numbers (too_small, too_big)', () => {
    for (const type of ['integer', 'decimal'] as const) {
      const field = fieldOf({ type, min: 1, max: 5, messages: { too_small: 'At least one, please.', too_big: 'Five at most.' } });
      const refusal = (raw: string) => {
        const result = fieldSchema(field).safeParse(raw);
        return result.success
          ? null
          : { code: issueCode(firstIssue(result.error)), message: issueMessage(firstIssue(result.error), field) };
      };
      expect(refusal('0'), type).toEqual({ code: 'too_small', message: 'At least one, please.' });
      expect(refusal('6'), type).toEqual({ code: 'too_big', message: 'Five at most.' });
      expect(refusal('3'), type).toBeNull();
    }
  });

  it('cover every other issue with `invalid`', () => {
    const enumField = fieldOf({ type: 'enum', values: ['a', 'b'], messages: { invalid: 'Pick a or b.' } });
    const result = fieldSchema(enumField).safeParse('c');
    expect(result.success ? null : issueMessage(firstIssue(result.error), enumField)).toBe('Pick a or b.');
  });
});
