import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** Companies, their contacts, and deals whose contact is `within` the deal's company; each case changes one thing. */
function spec(
  contact: Record<string, unknown> = { type: 'reference', to: 'contact', within: 'company' },
  person: Record<string, unknown> = {},
): AppSpec {
  return {
    name: 'crm',
    entities: {
      company: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
      region: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
      contact: {
        titleField: 'name',
        fields: { name: { type: 'text', required: true }, company: { type: 'reference', to: 'company' }, ...person },
      },
      deal: {
        titleField: 'title',
        fields: {
          title: { type: 'text', required: true },
          company: { type: 'reference', to: 'company', required: true },
          region: { type: 'reference', to: 'region' },
          contact,
        },
      },
    },
  } as unknown as AppSpec;
}

const issuesOf = (value: AppSpec) => validateSpec(value).map((i) => `${i.path}: ${i.message}`);
const at = 'entities.deal.fields.contact.within';

describe("a reference's within", () => {
  it('loads when both entities have the reference, and /spec says what it means', () => {
    expect(issuesOf(spec())).toEqual([]);
    const model = buildModel(spec());
    expect(model.entitiesByName.deal!.fieldsByName.contact!.within).toBe('company');
    expect(describeMarkdown(model)).toContain("only a contact whose company is the deal's own company (when it has one)");
  });

  it.each([
    ['not a string', spec({ type: 'reference', to: 'contact', within: 3 }), `${at}: must be the name of a reference field of deal, got 3`],
    ['the field itself', spec({ type: 'reference', to: 'contact', within: 'contact' }), `${at}: names the field itself`],
    ['no such field', spec({ type: 'reference', to: 'contact', within: 'owner' }), `${at}: "owner" is not a reference field of deal`],
    ['not a reference', spec({ type: 'reference', to: 'contact', within: 'title' }), `${at}: "title" is not a reference field of deal`],
    [
      'absent from the target',
      spec({ type: 'reference', to: 'contact', within: 'region' }),
      `${at}: contact has no reference field "region"`,
    ],
    [
      'references to different entities',
      spec(undefined, { company: { type: 'reference', to: 'region' } }),
      `${at}: deal.company refers to "company" but contact.company to "region": they cannot be compared`,
    ],
    [
      'on a field that is no reference',
      spec({ type: 'text', within: 'company' }),
      'entities.deal.fields.contact.within: unknown key in a text field',
    ],
  ])('refuses %s', (_, value, issue) => {
    expect(issuesOf(value).some((i) => i.startsWith(issue))).toBe(true);
  });
});
