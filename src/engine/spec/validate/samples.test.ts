import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** Deals with texts of every kind the samples check; each case gives other samples. */
function spec(samples: unknown): AppSpec {
  return {
    name: 'crm',
    entities: {
      deal: {
        titleField: 'title',
        fields: {
          title: { type: 'text', required: true, unique: true, minLength: 3, maxLength: 20 },
          code: { type: 'text', pattern: '^[A-Z]{2}-[0-9]+$' },
          domain: { type: 'text', format: 'hostname' },
          notes: { type: 'markdown', maxLength: 60 },
          slug: { type: 'text', computed: { slug: 'title' } },
          origin: { type: 'text', readOnly: true, default: 'web' },
          amount: { type: 'integer' },
        },
        samples,
      },
    },
  } as unknown as AppSpec;
}

const issuesOf = (samples: unknown) => validateSpec(spec(samples)).map((i) => `${i.path}: ${i.message}`);
const at = 'entities.deal.samples';

describe("an entity's samples", () => {
  const good = {
    title: ['Annual renewal', 'Pilot for sales'],
    code: ['AB-12', 'CD-3', 'EF-45'],
    domain: ['example.com'],
    notes: ['Met at the **trade fair**.\n\nWants a demo.'],
  };

  it('load when each keeps its field’s rules, and the model and /spec carry them', () => {
    expect(issuesOf(good)).toEqual([]);
    const deal = buildModel(spec(good)).entitiesByName.deal!;
    expect(deal.fieldsByName.title!.samples).toEqual(['Annual renewal', 'Pilot for sales']);
    expect(deal.fieldsByName.amount!.samples).toBeUndefined();
    // Lists of one length go together: the domain's only sample with the notes' only one.
    expect(deal.fieldsByName.notes!.samplesWith).toEqual(['domain']);
    expect(deal.fieldsByName.title!.samplesWith).toBeUndefined();
    const markdown = describeMarkdown(buildModel(spec(good)));
    expect(markdown).toContain('demo data picks from 2 sample texts (with a number added once each is taken)');
    expect(markdown).toMatch(
      /\| `notes` \| markdown \|[^\n]*demo data picks from 1 sample text, each going with the sample of `domain` at its place\s*\|/,
    );
  });

  it.each([
    ['not an object', ['Annual renewal'], `${at}: samples must be an object, got a list`],
    [
      'an unknown field',
      { titel: ['Annual renewal'] },
      `${at}.titel: deal has no field "titel" (its text and markdown fields: title, code, domain, notes, slug, origin)`,
    ],
    ['a field of another type', { amount: ['12'] }, `${at}.amount: deal.amount is "integer", not a text or markdown field`],
    ['a computed field', { slug: ['annual-renewal'] }, `${at}.slug: deal.slug is computed`],
    ['a read-only field', { origin: ['web'] }, `${at}.origin: deal.origin is read-only`],
    ['not a list', { title: 'Annual renewal' }, `${at}.title: must be a list of texts, got "Annual renewal"`],
    ['an empty list', { title: [] }, `${at}.title: is an empty list`],
    ['an empty text', { title: ['Annual renewal', '  '] }, `${at}.title[1]: is empty`],
    ['not a text', { title: ['Annual renewal', 3] }, `${at}.title[1]: must be a text, got 3`],
    ['a repeated text', { title: ['Pilot', 'Pilot'] }, `${at}.title[1]: duplicate sample "Pilot"`],
    [
      'too long',
      { title: ['A renewal of the whole account'] },
      `${at}.title[0]: "A renewal of the whole account" is longer than the field's maxLength 20 (30 characters)`,
    ],
    ['too short', { title: ['No'] }, `${at}.title[0]: "No" is shorter than the field's minLength 3 (2 characters)`],
    ['off the pattern', { code: ['AB-12', 'ab12'] }, `${at}.code[1]: "ab12" does not match the field's pattern ^[A-Z]{2}-[0-9]+$`],
    ['not a host name', { domain: ['not a host'] }, `${at}.domain[0]: "not a host" is not a host name such as example.com`],
    [
      'a markdown body too long, quoted by its opening',
      { notes: ['x'.repeat(61)] },
      `${at}.notes[0]: "${'x'.repeat(40)}"… is longer than the field's maxLength 60 (61 characters)`,
    ],
  ])('refuse %s, naming the place', (_, samples, expected) => {
    const issues = issuesOf(samples);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain(expected);
  });

  it('count characters as the field’s schema does, not UTF-16 units', () => {
    expect(issuesOf({ title: ['😀'.repeat(20)] })).toEqual([]);
  });

  it('are an entity key: a misspelt one is refused with a hint', () => {
    const misspelt = { ...spec(undefined), entities: { deal: { fields: { title: { type: 'text' } }, sample: { title: ['Pilot'] } } } };
    expect(validateSpec(misspelt as unknown as AppSpec).map((i) => `${i.path}: ${i.message}`)).toEqual([
      expect.stringContaining('entities.deal.sample: unknown key in an entity (did you mean "samples"?)'),
    ]);
  });
});
