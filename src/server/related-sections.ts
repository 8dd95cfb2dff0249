import 'server-only';
import type { Engine } from '@/engine/engine';
import { isFinal } from '@/engine/ops/final-state';
import type { ListPage, RecordView } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel, FieldModel } from '@/engine/spec/model';
import type { RelatedModel } from '@/engine/spec/screens/detail-model';
import { formChecks } from '@/ui/forms/validation';
import type { RelatedAddForm, RelatedSectionView, ReplyMode } from '@/ui/record/related-section-view';
import { asNinefoldError } from './errors';
import { describeFormFields } from './form-fields';
import { shownFilesOf } from './shown-files';
import { defaultFormValue } from './forms';
import type { RawSearchParams } from './list-query';
import { sectionAnchor } from '@/ui/record/related-state';
import { inSentence } from '@/engine/spec/naming';
import { knownEntity, knownFields } from '@/ui/known-names';

/** Counting stops here: the title then says "more than 1,000". */
const COUNT_CAP = 1_000;

/** The page's address with one search parameter changed (removed when null), every other kept. */
export function pageAddress(base: string, search: RawSearchParams, param: string, value: string | null, hash: string): string {
  const next = new URLSearchParams();
  for (const [key, raw] of Object.entries(search)) {
    if (key === param) continue;
    for (const item of Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) next.append(key, item);
  }
  if (value !== null) next.set(param, value);
  const query = next.toString();
  return `${base}${query ? `?${query}` : ''}#${hash}`;
}

/**
 * The sections of a record's detail page that this viewer may see: a section shows only when
 * the viewer may list the related entity and read the reference it follows (the record itself
 * was read through ops.get already). Rows and counts come from ops.list and ops.count filtered
 * by the reference, so scopes and hidden fields apply, and hidden rows are never counted.
 */
export async function relatedSections(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  view: RecordView,
  search: RawSearchParams,
  /** The viewer's zone, for the add form's date-time inputs. */
  zone: string,
): Promise<RelatedSectionView[]> {
  const base = `/${entity.plural}/${view.record.id}`;
  const sections = entity.details.related.filter((section) => {
    const access = engine.ops.access(actor, section.entity);
    return access.actions.list && access.readable.includes(section.via);
  });
  return Promise.all(sections.map((section) => sectionView(engine, actor, entity, view, section, search, base, zone)));
}

async function sectionView(
  engine: Engine,
  actor: Actor,
  parent: EntityModel,
  view: RecordView,
  section: RelatedModel,
  search: RawSearchParams,
  base: string,
  zone: string,
): Promise<RelatedSectionView> {
  const entity = knownEntity(engine.model, section.entity);
  const access = engine.ops.access(actor, entity.name);
  // The section's order, unless it is by a field this viewer may not read.
  const sortField = section.sort.replace(/^-/, '');
  const sort =
    access.readable.includes(sortField) || !entity.fieldsByName[sortField]
      ? section.sort
      : section.display === 'thread'
        ? 'createdAt'
        : '-createdAt';
  const query = { filters: { [section.via]: String(view.record.id) }, sort, limit: section.pageSize };
  const raw = search[section.param];
  const cursor = typeof raw === 'string' && raw !== '' ? raw : undefined;
  const [{ page, paged }, count, add] = await Promise.all([
    firstOrCursorPage(engine, actor, entity, query, cursor),
    engine.ops.count(actor, entity.name, query, COUNT_CAP),
    addForm(engine, actor, parent, view, section, entity, zone),
  ]);
  const anchor = sectionAnchor(section);
  return {
    section,
    entity,
    readable: access.readable,
    page,
    // A thread item shows its files (a table of records, their names only).
    files: section.display === 'thread' ? await shownFilesOf(engine, entity, page.rows) : {},
    count,
    nextHref: page.nextCursor ? pageAddress(base, search, section.param, page.nextCursor, anchor) : null,
    firstHref: paged ? pageAddress(base, search, section.param, null, anchor) : null,
    add,
  };
}

/** The page at the section's cursor; a cursor that is not (or no longer) valid starts from the first page. */
async function firstOrCursorPage(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  query: { filters: Record<string, string>; sort: string; limit: number },
  cursor: string | undefined,
): Promise<{ page: ListPage; paged: boolean }> {
  if (cursor !== undefined) {
    try {
      return { page: await engine.ops.list(actor, entity.name, { ...query, cursor }), paged: true };
    } catch (error) {
      if (asNinefoldError(error)?.code !== 'VALIDATION_FAILED') throw error;
    }
  }
  return { page: await engine.ops.list(actor, entity.name, query), paged: false };
}

/**
 * The add form, where the record shown takes new ones (not final, or the section allows it) and
 * ops would create one under it for the viewer (its create scope with this record bound: a
 * customer replies on their own tickets, not on a colleague's they read). ops.create checks all
 * of this again.
 */
async function addForm(
  engine: Engine,
  actor: Actor,
  parent: EntityModel,
  view: RecordView,
  section: RelatedModel,
  entity: EntityModel,
  zone: string,
): Promise<RelatedAddForm | null> {
  const access = engine.ops.access(actor, entity.name);
  if (!section.add || !access.actions.create || (isFinal(parent, view.record) && !section.addWhenFinal)) return null;
  if (!(await engine.ops.mayCreate(actor, entity.name, { [section.via]: view.record.id }))) return null;
  const fields = knownFields(
    entity,
    access.writable.create.filter((name) => name !== section.via),
  );
  const now = new Date();
  const values = Object.fromEntries(fields.map((field) => [field.name, defaultFormValue(field, actor, now, zone)]));
  const mode = replyMode(section, fields);
  const fixed = { [section.via]: String(view.record.id) };
  const descriptors = await describeFormFields({
    ops: engine.ops,
    actor,
    model: engine.model,
    entity,
    fields: fields.filter((field) => field.name !== mode?.field),
    values,
    zone,
    fixed,
  });
  const replyOptions = view.transitions
    .filter((offer) => offer.available && section.replyWith.includes(offer.name))
    .map((offer) => ({
      name: offer.name,
      label: `${section.display === 'thread' ? 'Reply' : `Add ${inSentence(entity.label)}`} and ${inSentence(offer.label)}`,
    }));
  return {
    fields: descriptors,
    mode,
    values,
    checks: formChecks(engine.model, entity, fields),
    replyOptions,
    notice: heldBackNotice(parent, view, section, actor),
  };
}

/**
 * What the reply box says before one writes, when the section's `transitions` name the viewer
 * but none of them can be taken now (a customer's reply on a ticket resolved too long ago): the
 * reply is still saved, and the viewer learns beforehand that it will not move the record, and why.
 */
function heldBackNotice(parent: EntityModel, view: RecordView, section: RelatedModel, actor: Actor): string | null {
  const named = Object.entries(section.transitions)
    .filter(([who]) => (parent.fieldsByName[who]?.type === 'user' ? view.record[who] === actor.userId : actor.roles.includes(who)))
    .flatMap(([, names]) => names);
  const offers = view.transitions.filter((offer) => named.includes(offer.name));
  if (offers.length === 0 || offers.some((offer) => offer.available)) return null;
  const [blocked] = offers;
  return `Your reply will be added, but it will not ${inSentence(blocked!.label)} this ${inSentence(parent.label)}${blocked!.blockedReason ? `: ${blocked!.blockedReason}` : '.'}`;
}

/** A thread's first marker (a boolean badge) the viewer may set, offered as a mode of the reply box. */
function replyMode(section: RelatedModel, writable: readonly FieldModel[]): ReplyMode | null {
  if (section.display !== 'thread') return null;
  const field = writable.find((f) => f.type === 'boolean' && section.badges.includes(f.name));
  return field ? { field: field.name, label: `${field.label} note`, note: field.spec.help ?? null } : null;
}

/**
 * Transitions not to offer as buttons of their own on this page: the first a reply takes by
 * itself in a section where this viewer can reply (the customer's old "Reply" button); further
 * ones (a reopen a reply takes on a resolved ticket) keep their buttons.
 */
export function transitionsTakenByReplies(sections: readonly RelatedSectionView[]): Set<string> {
  return new Set(sections.filter((s) => s.add !== null).flatMap((s) => Object.values(s.section.transitions).map((names) => names[0]!)));
}
