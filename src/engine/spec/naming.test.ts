import { describe, expect, it } from 'vitest';
import { indefinite, inSentence, withArticle } from './naming';

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

describe('inSentence', () => {
  it('lower-cases capitalised words and keeps initialisms, names and single letters', () => {
    const cases: [string, string][] = [
      ['Clinical notes', 'clinical notes'],
      ['PO number', 'PO number'],
      ['SLA due', 'SLA due'],
      ['Ticket Priority', 'ticket priority'],
      ['Ticket IDs', 'ticket IDs'],
      ['iPhone model', 'iPhone model'],
      ['Plan B', 'plan B'],
      ['E-mail address', 'e-mail address'],
      ['Due (UTC)', 'due (UTC)'],
      ["Customer's reference", "customer's reference"],
      ['Assignee', 'assignee'],
    ];
    for (const [label, expected] of cases) expect(inSentence(label), label).toBe(expected);
  });
});

describe('indefinite', () => {
  it('gives a label in a sentence the article it takes: none for plurals and uncountable nouns', () => {
    const cases: [string, string][] = [
      ['Assignee', 'an assignee'],
      ['PO number', 'a PO number'],
      ['Clinical notes', 'clinical notes'],
      ['Attachments', 'attachments'],
      ['Categories', 'categories'],
      ['Ticket IDs', 'ticket IDs'],
      ['SLA', 'an SLA'],
      ['SLA target', 'an SLA target'],
      ['GPS', 'a GPS'],
      ['Hour', 'an hour'],
      ['User', 'a user'],
      ['Unit price', 'a unit price'],
      ['Organization', 'an organization'],
      ['Status', 'a status'],
      ['Address', 'an address'],
      ['Analysis', 'an analysis'],
      ['Bonus', 'a bonus'],
      ['Alias', 'an alias'],
      ['Series', 'a series'],
      ['Feedback', 'feedback'],
      ['Supporting evidence', 'supporting evidence'],
      ['Staff', 'staff'],
      ['Data', 'data'],
      ['Resolution summary', 'a resolution summary'],
    ];
    for (const [label, expected] of cases) expect(indefinite(label), label).toBe(expected);
  });
});
