import { describe, expect, it } from 'vitest';
import publication from '../../../../examples/publication/ninefold.spec';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import { uniqueWhenText } from './unique-when';

describe('uniqueWhen and limits in the nine-point document', () => {
  const model = buildModel(publication);
  const markdown = describeMarkdown(model);

  it('says each rule in words, with its message, under point 5', () => {
    const article = model.entitiesByName.article!;
    expect(uniqueWhenText(article, article.uniqueWhen[0]!)).toBe(
      'section is unique among articles where featured is true and state is published',
    );
    expect(markdown).toContain('### Uniqueness among some records');
    expect(markdown).toContain(
      '| `article` | section is unique among articles where featured is true and state is published | Another published article is already featured in this section. |',
    );
  });

  it('says whose records a limit counts: a referenced record or a user', () => {
    expect(markdown).toContain('| article: draftsPerTeam | maxDraftsPerTeam (25) | team (a team) | state is one of draft, review |');
  });

  it('says nothing of uniqueness for a spec without uniqueWhen', () => {
    const without = buildModel({
      ...publication,
      entities: { ...publication.entities, article: { ...publication.entities.article, uniqueWhen: undefined } },
    });
    expect(describeMarkdown(without)).not.toContain('Uniqueness among some records');
  });

  it('names several fields together', () => {
    const article = model.entitiesByName.article!;
    expect(uniqueWhenText(article, { ...article.uniqueWhen[0]!, fields: ['section', 'team'] })).toMatch(
      /^section and team are unique together among articles where /,
    );
  });
});
