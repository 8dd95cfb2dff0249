import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** Articles with tags; each case changes one thing and expects one issue at its place. */
function spec(article: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): AppSpec {
  return {
    name: 'news',
    entities: {
      tag: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
      article: {
        titleField: 'title',
        fields: { title: { type: 'text', required: true }, tags: { type: 'references', to: 'tag', maxItems: 10 } },
        ...article,
      },
    },
    ...extra,
  } as unknown as AppSpec;
}

const tags = (changes: Record<string, unknown>) =>
  spec({ fields: { title: { type: 'text', required: true }, tags: { type: 'references', to: 'tag', ...changes } } });

function issuesOf(value: AppSpec): string[] {
  return validateSpec(value).map((i) => `${i.path}: ${i.message}`);
}

describe('references fields in the spec', () => {
  it('a valid one loads, with its join table', () => {
    expect(issuesOf(spec())).toEqual([]);
    const field = buildModel(spec()).entitiesByName.article!.fieldsByName.tags!;
    expect(field).toMatchObject({ referenceTo: 'tag', joinTable: 'article__tags' });
  });

  it.each([
    ['an unknown entity', tags({ to: 'label' }), 'entities.article.fields.tags.to: unknown entity "label"'],
    ['no entity', tags({ to: undefined }), 'entities.article.fields.tags.to: references need the name of an entity'],
    ['maxItems zero', tags({ maxItems: 0 }), 'entities.article.fields.tags.maxItems: must be an integer from 1 to 1000, got 0'],
    ['maxItems too large', tags({ maxItems: 1001 }), 'entities.article.fields.tags.maxItems: must be an integer from 1 to 1000, got 1001'],
    [
      'maxItems not an integer',
      tags({ maxItems: 2.5 }),
      'entities.article.fields.tags.maxItems: must be an integer from 1 to 1000, got 2.5',
    ],
    ['unique', tags({ unique: true }), 'entities.article.fields.tags.unique: a references field cannot be unique'],
    ['a default', tags({ default: [1] }), 'entities.article.fields.tags.default: unknown key in a references field'],
    ['searchable', tags({ searchable: true }), 'entities.article.fields.tags.searchable: a references field cannot be searchable'],
    ['the title field', spec({ titleField: 'tags' }), 'entities.article.titleField: "tags" holds many records and cannot title one'],
    [
      'a unique group',
      spec({ uniqueTogether: [['title', 'tags']] }),
      'entities.article.uniqueTogether[0][1]: "tags" holds many records and cannot be part of a unique group',
    ],
    [
      'the list sort',
      spec({}, { screens: { lists: { article: { sort: '-tags' } } } }),
      'screens.lists.article.sort: "tags" holds many records: a list cannot be sorted by it',
    ],
    [
      'a condition',
      spec({}, { permissions: { article: { admin: { list: { where: { field: 'tags', op: 'eq', value: 1 } } } } } }),
      'permissions.article.admin.list.where.field: "tags" holds many records: a condition cannot test it',
    ],
  ])('refuses %s', (_kind, value, issue) => {
    const issues = issuesOf(value);
    expect(
      issues.some((i) => i.startsWith(issue)),
      issues.join('\n'),
    ).toBe(true);
  });

  it('may be a list column and filter', () => {
    expect(issuesOf(spec({}, { screens: { lists: { article: { columns: ['title', 'tags'], filters: ['tags'] } } } }))).toEqual([]);
  });

  it('describe says what it is', () => {
    const text = describeMarkdown(buildModel(spec()));
    expect(text).toContain('references → tag (many)');
    expect(text).toContain('at most 10');
    const listed = describeMarkdown(
      buildModel(spec({}, { screens: { lists: { article: { columns: ['title', 'tags'], filters: ['tags'] } } } })),
    );
    expect(listed).toContain('Tags (has any of)');
  });
});
