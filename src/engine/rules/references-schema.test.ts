import { describe, expect, it } from 'vitest';
import { buildField } from '../spec/build';
import { fieldSchema, firstIssue, issueMessage } from './field-schema';

const tags = buildField('tags', { type: 'references', to: 'tag', maxItems: 3 });
const topics = buildField('topics', { type: 'references', to: 'tag', required: true });
const parse = (field: typeof tags, raw: unknown) => fieldSchema(field).safeParse(raw);
/** The message ops gives the user (through the union of null | value). */
const message = (field: typeof tags, raw: unknown) => {
  const result = parse(field, raw);
  return result.success ? null : issueMessage(firstIssue(result.error), field);
};

describe('the schema of a references field', () => {
  it.each([
    [
      [3, 1, 3],
      [1, 3],
    ],
    [
      ['2', '1'],
      [1, 2],
    ],
    ['4, 2', [2, 4]],
    ['4;2', [2, 4]],
    [7, [7]],
    [[], []],
    [null, []],
    ['', []],
    [undefined, []],
  ])('reads %j as the set %j', (raw, set) => {
    expect(parse(tags, raw)).toMatchObject({ success: true, data: set });
  });

  it.each([[['x']], [[0]], [[-1]], [[1.5]], ['a,b'], [{ id: 1 }], [[Number.MAX_SAFE_INTEGER + 2]], [true]])('refuses %j', (raw) => {
    expect(message(tags, raw)).toBe('Tags must be a list of record ids.');
  });

  it('refuses more than maxItems, counting each id once', () => {
    expect(parse(tags, [1, 2, 3, 3]).success).toBe(true);
    expect(message(tags, [1, 2, 3, 4])).toBe('Tags can hold at most 3.');
  });

  it('a required one needs at least one', () => {
    expect(message(topics, [])).toBe('Topics is required.');
    expect(message(topics, null)).toBe('Topics is required.');
    expect(parse(topics, [5]).success).toBe(true);
  });
});
