import { describe, expect, it } from 'vitest';
import { buildModel } from './build';
import { describeMarkdown } from './describe';
import { MAX_REFERENCES } from './join-fields';
import type { AppSpec } from './types';
import { validateSpec } from './validate';

function spec(maxItems: unknown, tagsPerPost: unknown = 3): AppSpec {
  return {
    name: 'posts',
    entities: {
      tag: { fields: { name: { type: 'text', required: true } } },
      post: { fields: { title: { type: 'text', required: true }, tags: { type: 'references', to: 'tag', maxItems } } },
    },
    constants: { tagsPerPost: { value: tagsPerPost, description: 'Tags one post may carry.' } },
  } as unknown as AppSpec;
}

const issues = (s: AppSpec) => validateSpec(s).map((i) => `${i.path}: ${i.message}`);
const PATH = 'entities.post.fields.tags.maxItems';

describe('a references field capped by a constant', () => {
  it('resolves the constant once in the model, and says it by name in the document', () => {
    const model = buildModel(spec({ $constant: 'tagsPerPost' }));
    expect(model.entitiesByName.post!.fieldsByName.tags!.maxItems).toBe(3);
    expect(describeMarkdown(model)).toContain('at most tagsPerPost');
    expect(buildModel(spec(undefined)).entitiesByName.post!.fieldsByName.tags!.maxItems).toBe(MAX_REFERENCES);
  });

  it('refuses an unknown constant, or one whose value is not a cap from 1 to the engine’s', () => {
    expect(issues(spec({ $constant: 'nope' }))).toEqual([`${PATH}: constant "nope" is not declared`]);
    expect(issues(spec({ $constant: 'tagsPerPost' }, 0))).toEqual([
      `${PATH}: must be an integer from 1 to ${MAX_REFERENCES}, got 0 (constant "tagsPerPost")`,
    ]);
    expect(issues(spec({ $constant: 'tagsPerPost' }, 'many'))).toEqual([
      `${PATH}: must be an integer from 1 to ${MAX_REFERENCES}, got "many" (constant "tagsPerPost")`,
    ]);
  });
});
