import { describe, expect, it } from 'vitest';
import { buildModel } from '@/engine/spec/build';
import { fieldToWire, recordToWire } from '../wire';
import { createContractChecker } from './contract';
import { buildOpenApiDocument } from './document';

/** Articles with a references field: what the API document says of it, and that records match it. */
const model = buildModel({
  name: 'news',
  entities: {
    tag: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    article: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        tags: { type: 'references', to: 'tag', maxItems: 10 },
        topics: { type: 'references', to: 'tag', required: true },
      },
    },
  },
  screens: { lists: { article: { columns: ['title', 'tags'], filters: ['tags'] } } },
});
const document = buildOpenApiDocument(model);
const checker = createContractChecker(document);
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const article = {
  id: 3,
  version: 1,
  createdAt: '2026-05-01T09:30:00.000Z',
  updatedAt: '2026-05-01T09:30:00.000Z',
  createdBy: 1,
  updatedBy: 1,
  title: 'Hello',
  tags: [1, 4],
  topics: [2],
};

describe('references fields in the API', () => {
  it('a record holds an array of unique ids, never null', () => {
    expect(document.components.schemas.Article!.properties?.tags).toMatchObject({
      type: 'array',
      items: { type: 'integer', minimum: 1 },
      uniqueItems: true,
      maxItems: 10,
    });
    expect(() =>
      checker.check('GET', '/api/v1/articles/3', { status: 200, headers: { ...JSON_TYPE, etag: '"1"' }, body: article }),
    ).not.toThrow();
    expect(() =>
      checker.check('GET', '/api/v1/articles/3', { status: 200, headers: { ...JSON_TYPE, etag: '"1"' }, body: { ...article, tags: null } }),
    ).toThrow();
    expect(() =>
      checker.check('GET', '/api/v1/articles/3', {
        status: 200,
        headers: { ...JSON_TYPE, etag: '"1"' },
        body: { ...article, tags: [1, 1] },
      }),
    ).toThrow();
  });

  it('a body sends an array that replaces the set (null for none; a required one needs one)', () => {
    expect(document.components.schemas.ArticleCreate!.properties?.tags).toMatchObject({ type: ['array', 'null'], maxItems: 10 });
    expect(document.components.schemas.ArticleCreate!.properties?.topics).toMatchObject({ type: 'array', minItems: 1 });
    expect(document.components.schemas.ArticleUpdate!.properties?.tags?.description).toContain('replaces the whole set');
  });

  it('lists filter by "has any of"', () => {
    const list = document.paths['/articles']!.get!;
    const filter = list.parameters?.find((p) => 'name' in p && p.name === 'tags');
    expect(filter).toMatchObject({ in: 'query', schema: { type: 'string' } });
    expect(JSON.stringify(filter)).toContain('any of');
  });

  it('the wire writes a set as its ids, and an absent one as []', () => {
    const tags = model.entitiesByName.article!.fieldsByName.tags!;
    expect(fieldToWire(tags, [1, 4])).toEqual([1, 4]);
    expect(fieldToWire(tags, null)).toEqual([]);
    const wire = recordToWire(
      model.entitiesByName.article!,
      {
        ...article,
        createdAt: new Date(article.createdAt),
        updatedAt: new Date(article.updatedAt),
      },
      new Map(),
    );
    expect(wire.tags).toEqual([1, 4]);
  });
});
