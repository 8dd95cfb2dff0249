import { describe, expect, it } from 'vitest';
import publication from '../../../../examples/publication/ninefold.spec';
import { visitorActor } from '../../access/visitor';
import { buildModel } from '../build';
import { presentationFor } from '../screens/presentation';
import type { AppSpec, PresentationSpec } from '../types';
import { validateSpec } from '../validate';

/** The publication with the article's presentation replaced by this (raw: a JavaScript spec may hold anything). */
function withPresentation(article: unknown): AppSpec {
  return { ...publication, screens: { ...publication.screens, presentation: { article: article as PresentationSpec } } };
}

const issuesOf = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);
const PATH = 'screens.presentation.article';

describe('screens.presentation', () => {
  it('builds the publication’s article presentation with its defaults', () => {
    const article = buildModel(publication).entitiesByName.article!;
    expect(article.presentation).toEqual({
      roles: ['public'],
      headline: 'title',
      summary: 'summary',
      body: 'body',
      date: 'publishedAt',
      byline: 'author',
      tags: 'tags',
      slug: 'slug',
      feed: true,
    });
    const bare = buildModel(withPresentation({ roles: ['public'] })).entitiesByName.article!;
    expect(bare.presentation).toMatchObject({ headline: 'title', date: 'createdAt', slug: null, feed: false });
    expect(buildModel(publication).entitiesByName.tag!.presentation).toBeNull();
  });

  it('is for visitors and users whose every role it names; a staff role keeps the back office', () => {
    const presentation = buildModel(publication).entitiesByName.article!.presentation;
    const user = (roles: string[]) => ({ userId: 7, email: 'a@b.c', name: 'A', roles });
    expect(presentationFor(presentation, visitorActor())).toBe(presentation);
    expect(presentationFor(presentation, user([]))).toBe(presentation);
    expect(presentationFor(presentation, user(['public']))).toBe(presentation);
    expect(presentationFor(presentation, user(['writer']))).toBeNull();
    expect(presentationFor(presentation, user(['admin']))).toBeNull();
    expect(presentationFor(null, visitorActor())).toBeNull();
  });

  it('refuses an entity that does not exist', () => {
    const screens = { ...publication.screens, presentation: { story: { roles: ['public'] } } };
    expect(issuesOf({ ...publication, screens }).join('\n')).toContain('screens.presentation.story: unknown entity "story"');
  });

  it.each([
    ['no roles', {}, `${PATH}.roles: name the roles`],
    ['an unknown role', { roles: ['public', 'boss'] }, `${PATH}.roles[1]: unknown role "boss"`],
    [
      'an unknown key',
      { roles: ['public'], headlien: 'title' },
      `${PATH}.headlien: unknown key in a presentation (did you mean "headline"?)`,
    ],
    ['an unknown field', { roles: ['public'], summary: 'abstract' }, `${PATH}.summary: unknown field "abstract" of article`],
    [
      'a body of the wrong type',
      { roles: ['public'], body: 'featured' },
      `${PATH}.body: "featured" is a boolean field; body must be a markdown or text field`,
    ],
    [
      'a date that is not a time',
      { roles: ['public'], date: 'title' },
      `${PATH}.date: "title" is a text field; date must be a date or datetime field`,
    ],
    [
      'tags that are one reference',
      { roles: ['public'], tags: 'team' },
      `${PATH}.tags: "team" is a reference field; tags must be a references field`,
    ],
    [
      'a slug that is not unique',
      { roles: ['public'], slug: 'title' },
      `${PATH}.slug: "title" is a text field that is not unique; slug must be a unique text field`,
    ],
    [
      'a feed without the public',
      { roles: ['editor'], feed: true },
      `${PATH}.feed: a feed is read by anyone, so "public" must be among the roles`,
    ],
    ['a feed that is not a boolean', { roles: ['public'], feed: 'yes' }, `${PATH}.feed: must be true or false`],
  ])('refuses %s', (_kind, article, message) => {
    expect(issuesOf(withPresentation(article)).join('\n')).toContain(message);
  });

  it('accepts createdAt as the date, and a unique text field as the slug', () => {
    expect(issuesOf(withPresentation({ roles: ['public', 'editor'], date: 'createdAt', slug: 'slug', feed: true }))).toEqual([]);
  });
});
