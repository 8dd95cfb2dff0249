import { PUBLIC_ROLE } from '../../access/visitor';
import type { DocBlock } from '../document';
import type { EntityModel } from '../model';
import { SYSTEM_COLUMNS } from '../build';
import { FEED_SIZE, FRONT_PAGE_SIZE } from '../screens/presentation';
import { code } from './text';

/**
 * An entity's reader pages (`screens.presentation`) in words, exactly as src/app/[plural] renders
 * them for its readers and src/server/reader-feed.ts serves the feed. Nothing without one.
 */
export function presentationBlocks(entity: EntityModel): DocBlock[] {
  const p = entity.presentation;
  if (!p) return [];
  const base = `/${entity.plural}`;
  const label = (name: string) => entity.fieldsByName[name]?.label ?? SYSTEM_COLUMNS.find((c) => c.name === name)?.label ?? name;
  const who = p.roles.map((role) => (role === PUBLIC_ROLE ? 'visitors (and users with no other role)' : code(role))).join(', ');
  const article = [
    `the ${label(p.headline)} as the headline`,
    ...(p.summary ? [`the ${label(p.summary)} under it`] : []),
    ...(p.byline ? [`"By" the ${label(p.byline)}`] : []),
    `the ${label(p.date)}`,
    ...(p.body ? [`the ${label(p.body)}${entity.fieldsByName[p.body]?.type === 'markdown' ? ' rendered as Markdown' : ''}`] : []),
    ...(p.tags ? [`the ${label(p.tags)} as links to the front page narrowed to each (${code(`${base}?${p.tags}=<id>`)})`] : []),
  ];
  const rows: string[][] = [
    [
      code(base),
      'Front page',
      `The latest ${entity.pluralLabel.toLowerCase()} the reader may list, newest ${label(p.date)} first, ${FRONT_PAGE_SIZE} a page with Older and Newest links: each its ${label(p.headline)} as a link${p.summary ? `, its ${label(p.summary)}` : ''} and its ${label(p.date)}`,
    ],
    [
      code(p.slug ? `${base}/<${p.slug}>` : `${base}/<id>`),
      'Article',
      `${article.join('; ')}. The page's title is the headline${p.summary ? `, its description the ${label(p.summary)}` : ''}, with Open Graph tags and a canonical link.${p.slug ? ` ${code(`${base}/<id>`)} sends the reader to this address.` : ''} One the reader may not read is "not found", by either address.`,
    ],
  ];
  if (p.feed)
    rows.push([
      code(`${base}/feed.xml`),
      'Atom feed',
      `The latest ${FEED_SIZE} as visitors may read them (title, link, summary, author where visitors may read it, tags, dates), linked from the front page's head; links are absolute, on ${code('NINEFOLD_PUBLIC_URL')} where it is set.`,
    ]);
  return [
    {
      kind: 'paragraph',
      text: `Readers: ${who} read ${entity.pluralLabel.toLowerCase()} as a publication, instead of the list and detail pages above (a user holding any other role keeps those; staff who follow an article's address land on its detail page). Whatever a reader may not read is left out.`,
    },
    { kind: 'table', columns: ['Route', 'Screen', 'Shows'], rows },
  ];
}
