import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { namedText, paragraphs, titleText } from './demo-texts';

/** Words of the helpdesk's sentences: out of place in a newsroom. */
const HELPDESK_WORDS = /\b(invoice|sign-in|checkout|browser|screenshot|Save|export|error)\b/i;

describe('demo texts that fit their entity', () => {
  it("gives articles headlines and bodies of a newsroom, not a helpdesk's", () => {
    faker.seed(3);
    const titles = Array.from({ length: 40 }, () => titleText(faker, 'article'));
    const bodies = Array.from({ length: 40 }, () => paragraphs(faker, 'body', 'article', true));
    expect([...titles, ...bodies].filter((t) => HELPDESK_WORDS.test(t))).toEqual([]);
    expect(new Set(titles).size).toBeGreaterThan(20);
  });

  it('names tags and categories by a topic, not a product', () => {
    faker.seed(4);
    const names = Array.from({ length: 20 }, () => namedText(faker, 'name', 'tag') ?? '');
    for (const name of names) expect(name).toMatch(/^[A-Z][a-z ]+$/);
    // Not a product's document ("Handcrafted chair review").
    expect(names.filter((n) => / (review|plan|update|request|proposal|checklist|summary)$/.test(n))).toEqual([]);
    expect(namedText(faker, 'category', 'product')).toMatch(/^[A-Z][a-z ]+$/);
  });

  it('gives a serial number a code, not a sentence', () => {
    faker.seed(5);
    expect(namedText(faker, 'serial', 'equipment')).toMatch(/^[A-Z0-9]{8}$/);
    expect(namedText(faker, 'serialNumber', 'device')).toMatch(/^[A-Z0-9]{8}$/);
  });
});
