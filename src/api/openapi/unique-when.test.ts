import { describe, expect, it } from 'vitest';
import publication from '../../../examples/publication/ninefold.spec';
import { buildModel } from '@/engine/spec/build';
import { buildOpenApiDocument } from './document';
import { helpdeskModel } from '@testing/api/openapi-fixtures';

const RULE =
  'VALIDATION_FAILED (or the rule\'s own code) also when the write would break a uniqueness rule: section is unique among articles where featured is true and state is published (on `section`: "Another published article is already featured in this section.").';

describe('OpenAPI: uniqueWhen in the 422 of writes', () => {
  const document = buildOpenApiDocument(buildModel(publication));

  it('says the rule on create, update and every transition of the entity', () => {
    const writes = [
      document.paths['/articles']!.post!,
      document.paths['/articles/{id}']!.patch!,
      ...['submit', 'publish', 'reject', 'archive'].map((name) => document.paths[`/articles/{id}/transitions/${name}`]!.post!),
    ];
    for (const operation of writes) {
      expect(operation.responses['422']!.description).toContain(RULE);
      expect(operation.responses['422']!['x-error-codes']).toContain('VALIDATION_FAILED');
    }
  });

  it('says nothing of it for entities without rules, nor on reads', () => {
    expect(document.paths['/tags']!.post!.responses['422']!.description).not.toContain('uniqueness rule');
    expect(JSON.stringify(buildOpenApiDocument(helpdeskModel))).not.toContain('uniqueness rule');
  });
});
