import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { isReadable } from '@/engine/access/fields';
import { isVisitor } from '@/engine/access/visitor';
import type { Engine } from '@/engine/engine';
import type { HistoryPage, RecordData, ReferenceTitles, TransitionOffer } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { takeTransition } from '@/server/actions/transitions';
import { setWatchAction } from '@/server/actions/notify-preferences';
import { viewerZone } from '@/server/viewer-zone';
import { entityForPlural, recordIdOrNotFound, recordOrNotFound } from '@/server/entity-route';
import { asNinefoldError } from '@/server/errors';
import { describeFormFields } from '@/server/form-fields';
import { addRelated } from '@/server/actions/related';
import { pageAddress, relatedSections, transitionsTakenByReplies } from '@/server/related-sections';
import { readerArticle, readerOrigin, redirectSlugToRecord } from '@/server/reader';
import { requireViewer } from '@/server/viewer';
import { ArticlePage, articleMetadata } from './article-page';
import { inPlaceEdits } from './in-place-edits';
import { shownFilesOf } from '@/server/shown-files';
import { Breadcrumbs } from '@/ui/breadcrumbs';
import { ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { ColumnValue } from '@/ui/cell-value';
import { resolveColumn, type ListColumn } from '@/ui/columns';
import { PageHeader } from '@/ui/page-header';
import { RecordCommandsLeaf } from '@/ui/palette/record-commands-leaf';
import { recordCommands } from '@/ui/palette/record-commands-of';
import { RecordDetails } from '@/ui/record-details';
import { recordTitle } from '@/engine/ops/record-title';
import { DueNoteLine } from '@/ui/record/due-note';
import { LiveTopics } from '@/ui/live/live-topics';
import { HistoryTimeline } from '@/ui/record/history-timeline';
import { dueNotes } from '@/ui/record/sla';
import { TransitionPanel, type TransitionItem } from '@/ui/record/transition-panel';
import { planOffers } from '@/ui/record/transition-plan';
import { RelatedSection } from '@/ui/record/related-section';
import { sectionAnchor } from '@/ui/record/related-state';
import { StateBadge } from '@/ui/state-badge';
import { entityFor } from '@/engine/spec/screens/for-roles';
import { WatchControls } from '@/ui/record/watch-controls';
import { knownFields } from '@/ui/known-names';
import { counterpartOf } from '@/server/counterpart';
import { CounterpartCard } from '@/ui/record/counterpart-card';
import { ConversationLayout } from '@/ui/record/conversation-layout';

type Props = {
  params: Promise<{ plural: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { plural, id } = await params;
  const { entity } = await entityForPlural(plural);
  const found = entity.presentation ? await readerArticle(plural, id) : null;
  return found ? articleMetadata(found, readerOrigin(await headers())) : { title: entity.label };
}

const SYSTEM = ['id', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'] as const;
const HISTORY_PAGE = 20;

/** A page of the history from the `history` cursor; a cursor that is not (or no longer) valid starts from the newest. */
async function historyPage(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  id: number,
  cursor: string | undefined,
): Promise<{ page: HistoryPage; older: boolean }> {
  if (cursor !== undefined) {
    try {
      return { page: await engine.ops.history(actor, entity.name, id, { cursor, limit: HISTORY_PAGE }), older: true };
    } catch (error) {
      if (asNinefoldError(error)?.code !== 'VALIDATION_FAILED') throw error;
    }
  }
  return { page: await engine.ops.history(actor, entity.name, id, { limit: HISTORY_PAGE }), older: false };
}

/** The transitions as the panel offers them: each with its bound action and the inputs it asks for. */
async function transitionItems(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  record: RecordData,
  references: ReferenceTitles,
  offers: readonly TransitionOffer[],
  writable: readonly string[],
  zone: string,
): Promise<TransitionItem[]> {
  return Promise.all(
    planOffers(offers, record, new Set(writable)).map(async (plan) => ({
      plan,
      action: takeTransition.bind(null, entity.name, record.id, plan.offer.name),
      fields:
        plan.ask.length === 0
          ? []
          : await describeFormFields({
              ops: engine.ops,
              actor,
              model: engine.model,
              entity,
              fields: knownFields(entity, plan.ask),
              values: {},
              references,
              zone,
            }),
    })),
  );
}

export default async function RecordPage({ params, searchParams }: Props) {
  const { plural, id: rawId } = await params;
  // Unknown addresses are a 404 for everyone; what is behind a known one needs a sign-in.
  const { engine, entity } = await entityForPlural(plural);
  // Readers of a presented entity read an article; staff who follow its slug address land on the record's page.
  const found = entity.presentation ? await readerArticle(plural, rawId) : null;
  if (found) return <ArticlePage found={found} segment={rawId} />;
  const actor = await requireViewer(`/${plural}/${rawId}`);
  await redirectSlugToRecord(engine, actor, entity, rawId);
  const id = recordIdOrNotFound(rawId);
  const visitor = isVisitor(actor);
  const view = await recordOrNotFound(engine, actor, entity, id);
  const { record, references, transitions, can } = view;
  const search = await searchParams;
  const rawCursor = search.history;
  const cursor = typeof rawCursor === 'string' && rawCursor !== '' ? rawCursor : undefined;

  const resolve = (name: string) => resolveColumn(engine.model, entity, name);
  const access = engine.ops.access(actor, entity.name);
  // The entity in the viewer's words (their states' labels) and with their list's columns.
  const viewed = entityFor(entity, actor);
  // What the viewer reads of this record: ops left out what the grants that let them see it hide.
  const readable = new Set(access.readable.filter((name) => Object.hasOwn(record, name)));
  // A due time is the desk's clock: shown, with its promise and overdue mark, to those whose list shows it.
  const clockless = (name: string) => entity.fieldsByName[name]?.due !== undefined && !viewed.list.columns.includes(name);
  const fieldColumns = [...readable]
    .filter((name) => Object.hasOwn(entity.fieldsByName, name) && !clockless(name))
    .map((name) => resolve(name))
    .filter((c): c is ListColumn => c !== null);
  // Who wrote or changed it follows the field rules (hidden from visitors by default).
  const systemColumns = SYSTEM.filter((name) => isReadable(entity, readable, name))
    .map(resolve)
    .filter((c): c is ListColumn => c !== null);
  const title = recordTitle(entity, record, references);
  const base = `/${entity.plural}/${record.id}`;
  const zone = await viewerZone();

  const [history, sections, files, watch] = await Promise.all([
    visitor ? Promise.resolve(null) : historyPage(engine, actor, entity, id, cursor),
    relatedSections(engine, actor, entity, view, search, zone),
    shownFilesOf(engine, entity, [record]),
    // Watch and mute: for signed-in users, where the spec has notifications.
    visitor || engine.model.notifications.length === 0 ? Promise.resolve(null) : engine.notifications.watching(actor, entity.name, id),
  ]);
  // A transition a reply takes by itself is not a button of its own where the viewer can reply.
  const takenByReplies = transitionsTakenByReplies(sections);
  const offers = transitions.filter((offer) => !takenByReplies.has(offer.name));
  const items = entity.workflow
    ? await transitionItems(engine, actor, entity, record, references, offers, access.writable.update, zone)
    : [];
  const notes = Object.fromEntries(
    Object.entries(dueNotes(engine.model.constants, entity, record)).map(([field, note]) => [
      field,
      <DueNoteLine key={field} note={note} />,
    ]),
  );

  const edits = await inPlaceEdits(engine, actor, entity, view, readable, zone);
  // A record whose page has a thread reads as a conversation: the thread leads, the facts go to the side.
  const threads = sections.filter((section) => section.section.display === 'thread');
  const tables = sections.filter((section) => section.section.display !== 'thread');
  const threaded = threads.length > 0;
  const counterpart = threaded ? await counterpartOf(engine, actor, entity, view, sections) : null;
  const isWide = (column: ListColumn) => column.kind === 'field' && (column.field.type === 'markdown' || column.field.files !== undefined);
  const wideColumns = fieldColumns.filter(isWide);
  // Beside a conversation the heading already is the title, and the counterpart has a card: the facts leave them out.
  const narrowColumns = fieldColumns.filter(
    (column) => !isWide(column) && column.name !== entity.titleField && column.name !== counterpart?.field,
  );
  const details = (columns: readonly ListColumn[], layout: 'grid' | 'stack') => (
    <Card className="p-5">
      <RecordDetails
        zone={zone}
        locale={engine.model.locale}
        columns={columns}
        record={record}
        references={references}
        notes={notes}
        files={files}
        layout={layout}
        edits={edits}
      />
    </Card>
  );
  const sectionViews = (shown: typeof sections) =>
    shown.map((section) => (
      <RelatedSection
        zone={zone}
        key={section.section.key}
        model={engine.model}
        view={section}
        anchor={sectionAnchor(section.section)}
        action={addRelated.bind(null, entity.name, record.id, section.section.key)}
      />
    ));
  const historyTimeline = history ? (
    <HistoryTimeline
      zone={zone}
      locale={engine.model.locale}
      entity={entity}
      entries={history.page.entries}
      titles={history.page.references}
      olderHref={history.page.nextCursor ? pageAddress(base, search, 'history', history.page.nextCursor, 'history') : null}
      newestHref={history.older ? pageAddress(base, search, 'history', null, 'history') : null}
    />
  ) : null;
  // A visitor takes no transition, nor anyone who may take none of the workflow's (but by replying):
  // the state badge says where the record stands. Who merely cannot now sees why.
  const mayTakeSome = (entity.workflow?.transitions ?? []).some((t) => access.transitions[t.name] && !takenByReplies.has(t.name));
  const workflowPanel =
    viewed.workflow && !visitor && mayTakeSome ? (
      <TransitionPanel entity={viewed} recordId={record.id} state={record[viewed.workflow.field]} version={record.version} items={items} />
    ) : null;
  const systemCard = (
    <Card className="h-fit p-5">
      <dl className="space-y-3 text-sm">
        {systemColumns.map((column) => (
          <div key={column.name} className="flex items-center justify-between gap-4">
            <dt className="text-zinc-500">{column.label}</dt>
            <dd className="text-right text-zinc-900">
              <ColumnValue
                column={column}
                record={record}
                references={references}
                variant="detail"
                zone={zone}
                locale={engine.model.locale}
              />
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );

  return (
    <div>
      {/* The same actions, for the command palette and the `e` key. */}
      <RecordCommandsLeaf title={`${entity.label} #${record.id}`} commands={recordCommands(base, can, items)} />
      {/* Refreshed in place when this record or one of its related records changes. */}
      <LiveTopics topics={[{ entity: entity.name, ids: [record.id] }, ...sections.map((section) => ({ entity: section.entity.name }))]} />
      <PageHeader
        eyebrow={
          // A visitor who may read but not list these records would be sent to sign in by the list's link.
          <Breadcrumbs
            items={[
              { ...(visitor && !access.actions.list ? {} : { href: `/${entity.plural}` }), label: entity.pluralLabel },
              { label: `#${record.id}` },
            ]}
          />
        }
        title={title}
        badge={viewed.workflow ? <StateBadge workflow={viewed.workflow} state={record[viewed.workflow.field]} /> : null}
        actions={
          <>
            {watch && (watch.canWatch || watch.canMute) ? (
              <WatchControls
                canWatch={watch.canWatch}
                canMute={watch.canMute}
                mode={watch.mode}
                action={(mode) => setWatchAction.bind(null, entity.name, record.id, mode)}
              />
            ) : null}
            {can.update ? <ButtonLink href={`${base}/edit`}>Edit</ButtonLink> : null}
            {can.delete ? (
              <ButtonLink href={`${base}/delete`} variant="ghost" className="text-red-700 hover:bg-red-50 hover:text-red-800">
                Delete
              </ButtonLink>
            ) : null}
          </>
        }
      />
      {threaded ? (
        <ConversationLayout
          opening={wideColumns.length > 0 ? details(wideColumns, 'grid') : null}
          threads={sectionViews(threads)}
          workflow={workflowPanel}
          facts={narrowColumns.length > 0 ? details(narrowColumns, 'stack') : null}
          counterpart={counterpart ? <CounterpartCard entity={entity} counterpart={counterpart} locale={engine.model.locale} /> : null}
          rest={
            <>
              {sectionViews(tables)}
              {historyTimeline}
            </>
          }
          system={systemCard}
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="min-w-0 space-y-6 lg:col-span-2">
            {fieldColumns.length > 0 ? details(fieldColumns, 'grid') : null}
            {sectionViews(sections)}
            {historyTimeline}
          </div>
          {/* On a phone the column dissolves: the workflow comes first (what one can do now), the record's facts last. */}
          {/* (Spaced from `lg` only: dissolved, the grid's gap spaces them, and a margin would add to it.) */}
          <div className="max-lg:contents lg:col-start-3 lg:row-start-1 lg:space-y-6">
            {workflowPanel ? <div className="max-lg:order-first">{workflowPanel}</div> : null}
            <div className="max-lg:order-last">{systemCard}</div>
          </div>
        </div>
      )}
    </div>
  );
}
