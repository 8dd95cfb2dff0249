import { describe, expect, it } from 'vitest';
import { withArticle } from './naming';

describe('withArticle', () => {
  it('chooses "a" or "an" by how the noun sounds', () => {
    const cases: [string, string][] = [
      ['appointment', 'an appointment'],
      ['organization', 'an organization'],
      ['ticket', 'a ticket'],
      ['user', 'a user'],
      ['unique key', 'a unique key'],
      ['umbrella', 'an umbrella'],
      ['hour', 'an hour'],
      ['house', 'a house'],
      ['one-off', 'a one-off'],
      ['SLA', 'an SLA'],
      ['URL', 'a URL'],
      ['Item', 'an Item'],
      ['integer field', 'an integer field'],
      ['enum field', 'an enum field'],
    ];
    for (const [noun, expected] of cases) expect(withArticle(noun), noun).toBe(expected);
  });
});
