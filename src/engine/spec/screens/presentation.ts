import { PUBLIC_ROLE } from '../../access/visitor';
import type { Actor } from '../../ground/actor';
import type { AppSpec } from '../types';

/**
 * An entity's reader pages (`screens.presentation`) with its defaults filled in: which field is
 * each part of an article. Checked by validate/presentation.ts; the pages and the feed read it.
 */
export interface PresentationModel {
  readonly roles: readonly string[];
  readonly headline: string;
  readonly summary: string | null;
  readonly body: string | null;
  /** A field or createdAt/updatedAt: shown, and the front page's order, newest first. */
  readonly date: string;
  readonly byline: string | null;
  readonly tags: string | null;
  readonly slug: string | null;
  readonly feed: boolean;
}

/** Records on a page of the front page. */
export const FRONT_PAGE_SIZE = 10;

/** Entries of a feed: the latest, as feed readers expect, not the whole archive. */
export const FEED_SIZE = 20;

export function buildPresentation(spec: AppSpec, entity: string, titleField: string | null): PresentationModel | null {
  const declared = spec.screens?.presentation?.[entity];
  if (!declared) return null;
  const headline = declared.headline ?? titleField;
  if (headline === null) throw new Error(`The presentation of ${entity} has no headline, though the spec validator checks one exists.`);
  return {
    roles: declared.roles,
    headline,
    summary: declared.summary ?? null,
    body: declared.body ?? null,
    date: declared.date ?? 'createdAt',
    byline: declared.byline ?? null,
    tags: declared.tags ?? null,
    slug: declared.slug ?? null,
    feed: declared.feed ?? false,
  };
}

/**
 * The presentation an actor reads an entity through, or null for the back office: a visitor, or a
 * user every role of whom the presentation names (no role at all reads as a visitor does). One
 * staff role the presentation does not name keeps the tables and forms that role works with.
 */
export function presentationFor(presentation: PresentationModel | null, actor: Actor): PresentationModel | null {
  if (!presentation) return null;
  const held = actor.roles.filter((role) => role !== PUBLIC_ROLE || actor.visitor);
  const roles = held.length === 0 ? [PUBLIC_ROLE] : held;
  return roles.every((role) => presentation.roles.includes(role)) ? presentation : null;
}
