import { forbidden, redirect } from 'next/navigation';
import Link from 'next/link';
import { isVisitor } from '@/engine/access/visitor';
import type { Engine } from '@/engine/engine';
import type { Ops } from '@/engine/ops/ops';
import type { ListCount, ListPage as ListResult, ListQuery } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { parseSort } from '@/engine/spec/build';
import type { EntityModel } from '@/engine/spec/model';
import type { Condition } from '@/engine/spec/types';
import { takeBulkAction } from '@/server/actions/bulk-actions';
import { moveBoardCard } from '@/server/actions/board';
import type { BoardPage } from '@/engine/ops/types';
import { BoardView } from '@/ui/board/board-view';
import { ViewSwitch } from '@/ui/board/view-switch';
import { viewerZone } from '@/server/viewer-zone';
import { describeBulkFields, describeBulkSetFields } from '@/server/bulk-fields';
import { bulkDeleteQuestion } from '@/server/bulk-delete-actions';
import { newRecordLabel } from '@/engine/spec/new-record-label';
import { asNinefoldError } from '@/server/errors';
import { exportAddress } from '@/server/csv/export-address';
import { describeFilters } from '@/server/list-filters';
import { filterChips } from '@/server/filter-chips';
import { cleanListAddress, listAddress, parseListParams, toListQuery, type RawSearchParams } from '@/server/list-query';
import { columnChoices } from '@/engine/views/list-state';
import { Alert } from '@/ui/alert';
import { ButtonLink } from '@/ui/button';
import { listColumns, resolveColumn } from '@/ui/columns';
import { EmptyState } from '@/ui/empty-state';
import { ListFilters } from '@/ui/list-filters';
import { sortChoices } from '@/ui/list-sort';
import { LIST_COUNT_CAP, ListCountLine } from '@/ui/list-count';
import { ListCsvLinks } from '@/ui/csv/list-csv-links';
import { PageHeader } from '@/ui/page-header';
import { Pagination } from '@/ui/pagination';
import { BulkActionForm, type BulkTransitionChoice } from '@/ui/record/bulk-action-form';
import { bulkFinalTransitionQuestion } from '@/ui/record/transition-question';
import { BULK_ROW_INPUT } from '@/ui/record/bulk-action-state';
import { RecordTable, type RowSelection } from '@/ui/record-table';
import { recordTitle } from '@/engine/ops/record-title';
import { LiveTopics } from '@/ui/live/live-topics';
import { SelectAllRows } from '@/ui/select-all-rows';
import { ListViewsBar } from './list-views-bar';
import { inSentence } from '@/engine/spec/naming';
import { entityFor } from '@/engine/spec/screens/for-roles';
import { mayImport } from '@/server/csv/may-import';

/** A list fixed by whoever shows it (a custom route): its condition, sort and columns. */
export interface FixedList {
  /** ANDed with the viewer's scope and the filters chosen in the page. */
  readonly where?: Condition;
  /** Values of the `{ param }` operands of `where`. */
  readonly params?: Readonly<Record<string, string | number | boolean>>;
  /** The order until the viewer picks a column; default: the entity list's. */
  readonly sort?: string;
  readonly columns?: readonly string[];
}

export interface EntityListViewProps {
  readonly engine: Engine;
  readonly actor: Actor;
  readonly entity: EntityModel;
  /** Where this list lives ("/tickets", "/queue"): sorting, filters and pages link back here. */
  readonly path: string;
  readonly search: RawSearchParams;
  readonly title: string;
  readonly description?: string;
  readonly fixed?: FixedList;
}

/** How many records the list holds for the actor; null when ops refused the query (loadList says why). */
async function loadCount(ops: Ops, actor: Actor, entity: string, query: ListQuery): Promise<ListCount | null> {
  try {
    return await ops.count(actor, entity, query, LIST_COUNT_CAP);
  } catch (error) {
    if (!asNinefoldError(error)) throw error;
    return null;
  }
}

/** A page of the list, or why ops refused the query (a bad sort, filter or cursor in the address). */
async function loadList(
  ops: Ops,
  actor: Actor,
  entity: string,
  query: ListQuery,
): Promise<{ ok: true; page: ListResult } | { ok: false; message: string }> {
  try {
    return { ok: true, page: await ops.list(actor, entity, query) };
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known) throw error;
    if (known.code === 'FORBIDDEN') forbidden();
    const details = known.fieldErrors.map((e) => e.message).filter((m) => m !== known.message);
    return { ok: false, message: [known.message, ...new Set(details)].join(' ') };
  }
}

/** The board of the list, or why ops refused it (as loadList). */
async function loadBoard(
  ops: Ops,
  actor: Actor,
  entity: string,
  query: ListQuery,
): Promise<{ ok: true; page: BoardPage } | { ok: false; message: string }> {
  try {
    // A board has no pages: each column shows its first cards.
    const { cursor: _page, limit: _limit, ...board } = query;
    return { ok: true, page: await ops.board(actor, entity, board) };
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known) throw error;
    return { ok: false, message: known.message };
  }
}

/**
 * The records of an entity as a working list: columns sorted by their headers, filters and
 * search, keyset pages and bulk actions (transitions, "Set <field>", delete) on the selected rows. An entity's own list page shows it as is; a custom
 * route shows it with its fixed condition, under which the viewer's filters still apply.
 */
export async function EntityListView({
  engine,
  actor,
  entity: general,
  path,
  search: rawSearch,
  title,
  description,
  fixed = {},
}: EntityListViewProps) {
  // The list as the viewer's role sees it (its columns, filters, sort, bulk and import) and its states in their words.
  const entity = entityFor(general, actor);
  // A form sent without JavaScript brings empty fields (and the column chooser's own): the address a user copies stays clean.
  const defaultColumns = fixed.columns ?? entity.list.columns;
  const clean = cleanListAddress(path, rawSearch, defaultColumns);
  if (clean !== null) redirect(clean);
  const { params: listParams, problem } = parseListParams(entity, rawSearch);
  const access = engine.ops.access(actor, entity.name);
  const visitor = isVisitor(actor);
  const readable = new Set(access.readable);
  const zone = await viewerZone();
  const defaultSort = fixed.sort ?? (entity.list.sort.direction === 'desc' ? `-${entity.list.sort.field}` : entity.list.sort.field);
  const query: ListQuery = {
    // Ops orders by the entity's own list when asked nothing; a role's list may order otherwise.
    ...(fixed.sort || entity.list !== general.list ? { sort: defaultSort } : {}),
    ...toListQuery(listParams),
    ...(fixed.where ? { where: fixed.where, params: fixed.params ?? {} } : {}),
  };

  // Bulk transitions: only those the actor may take on some record (ops decides per row), where their list offers bulk actions.
  const bulk = entity.list.bulk;
  const bulkChoices: BulkTransitionChoice[] = (entity.workflow?.transitions ?? [])
    .filter((t) => bulk && access.transitions[t.name])
    .map((t) => ({
      name: t.name,
      label: t.label,
      ...(t.comment ? { comment: t.comment } : {}),
      question: bulkFinalTransitionQuestion(entity, t.name),
    }));

  // A board (declared by the list screen) on the entity's own list, where the viewer may read its field; the table one switch away.
  const boardable =
    entity.list.board !== null &&
    path === `/${entity.plural}` &&
    !fixed.where &&
    engine.ops.mayQuery(actor, entity.name, { fields: [entity.list.board.field] });
  const showBoard = boardable && listParams.view !== 'table';
  // Delete where some role of the actor grants it (ops decides per row, and asks nothing of the others).
  const deleteQuestion = bulk && access.actions.delete ? bulkDeleteQuestion(entity) : null;

  const [filters, listing, count, bulkFields, setFields, board] = await Promise.all([
    describeFilters(engine.ops, actor, entity, readable, listParams),
    problem
      ? Promise.resolve({ ok: false as const, message: problem })
      : showBoard
        ? null
        : loadList(engine.ops, actor, entity.name, query),
    problem || showBoard ? Promise.resolve(null) : loadCount(engine.ops, actor, entity.name, query),
    describeBulkFields({
      ops: engine.ops,
      actor,
      model: engine.model,
      entity,
      offered: bulkChoices.map((c) => c.name),
      writable: new Set(access.writable.update),
      zone,
    }),
    bulk ? describeBulkSetFields({ ops: engine.ops, actor, model: engine.model, entity, access, zone }) : [],
    showBoard && !problem ? loadBoard(engine.ops, actor, entity.name, query) : null,
  ]);
  const loaded = listing ?? board;
  const result = listing?.ok ? listing.page : null;
  const failure = loaded && !loaded.ok ? loaded.message : null;

  // `columns=` picks and orders the columns among those the viewer may read; others are left out (and said so).
  const choices = columnChoices(entity, readable);
  const picked = listParams.columns.filter((name) => choices.includes(name));
  const { columns, linkColumn } = listColumns(engine.model, entity, readable, picked.length > 0 ? picked : defaultColumns);
  const sort = result?.sort[0] ?? parseSort(listParams.sort || defaultSort);
  const filtered = listParams.q.trim() !== '' || Object.values(listParams.filters).some((v) => v !== '');
  const cleared = { ...listParams, q: '', cursor: '', filters: {} };
  const here = listAddress(path, listParams);
  const createLabel = newRecordLabel(engine.model, entity);
  const canCreate = access.actions.create;
  // The search covers every searchable field: offered only when the actor may read them all.
  const searchable = entity.searchFields.length > 0 && entity.searchFields.every((name) => readable.has(name));
  const bulkForm = `bulk-${entity.plural}`;
  const rows = result?.rows ?? [];
  const plural = inSentence(entity.pluralLabel);
  // Rows are selectable when the panel has something to do with them; none, no checkboxes and no panel.
  const selection: RowSelection | undefined =
    bulkChoices.length > 0 || setFields.length > 0 || deleteQuestion !== null
      ? {
          form: bulkForm,
          name: BULK_ROW_INPUT,
          value: (record) => `${record.id}:${record.version}`,
          label: (record) => `Select ${recordTitle(entity, record, result?.references)}`,
          header: <SelectAllRows key={here} form={bulkForm} name={BULK_ROW_INPUT} label={`Select all ${plural} on this page`} />,
        }
      : undefined;

  // One row above the list: search, the Filters disclosure and the active filters, the count, then views and columns.
  const toolbar = (
    <>
      <ListFilters
        action={path}
        filters={filters}
        chips={filterChips(entity, filters, path, listParams)}
        search={searchable ? { label: 'Search', value: listParams.q } : null}
        sort={listParams.sort || null}
        columns={listParams.columns}
        sortOptions={sortChoices(columns)}
        resetHref={filtered ? listAddress(path, cleared) : null}
        view={listParams.view}
      />
      {count && rows.length > 0 ? (
        <ListCountLine count={count} one={inSentence(entity.label)} many={plural} locale={engine.model.locale} />
      ) : null}
    </>
  );

  return (
    <div>
      {/* Refreshed in place when a record of this entity that the viewer may read changes (src/ui/live). */}
      <LiveTopics topics={[{ entity: entity.name }]} />
      <PageHeader
        title={title}
        description={description}
        spacing="mb-4"
        actions={
          <>
            {/* Exports, imports and saved views belong to an account: a visitor has none. */}
            {visitor ? null : (
              <ListCsvLinks
                exportHref={exportAddress(entity, path, listParams)}
                importHref={mayImport(engine.ops, actor, general) ? `/${entity.plural}/import` : null}
              />
            )}
            {canCreate ? (
              <ButtonLink href={`/${entity.plural}/new`} variant="primary">
                {createLabel}
              </ButtonLink>
            ) : null}
          </>
        }
      />
      {visitor ? (
        <div className="mb-3 flex flex-wrap items-center gap-2">{toolbar}</div>
      ) : (
        <ListViewsBar
          engine={engine}
          actor={actor}
          entity={entity}
          path={path}
          params={listParams}
          savable={path === `/${entity.plural}` && !fixed.where}
          choices={choices.map((name) => ({ name, label: resolveColumn(engine.model, entity, name)?.label ?? name }))}
          shown={columns.map((c) => c.name)}
          defaults={defaultColumns}
          droppedColumns={listParams.columns.length - picked.length}
        >
          {toolbar}
        </ListViewsBar>
      )}
      {boardable ? (
        <ViewSwitch
          board={showBoard}
          tableHref={listAddress(path, listParams, { view: 'table', cursor: '' })}
          boardHref={listAddress(path, listParams, { view: '', cursor: '' })}
        />
      ) : null}
      {selection && failure === null && !showBoard ? (
        <BulkActionForm
          key={here}
          id={bulkForm}
          action={takeBulkAction.bind(null, entity.name)}
          choices={bulkChoices}
          fields={bulkFields}
          setFields={setFields}
          deleteQuestion={deleteQuestion}
          plural={plural}
          controls={rows.length > 0}
          cancelHref={here}
        />
      ) : null}
      {failure !== null ? (
        <Alert title="This list cannot be shown with these settings.">
          <p>{failure}</p>
          <p className="mt-2">
            <Link href={path} className="font-medium underline underline-offset-2">
              Show the list from the start
            </Link>
          </p>
        </Alert>
      ) : board?.ok ? (
        <BoardView
          entity={entity}
          page={board.page}
          columns={columns.filter((c) => c.name !== linkColumn && c.name !== board.page.field).slice(0, 3)}
          writable={new Set(access.writable.update)}
          action={moveBoardCard.bind(null, entity.name)}
          moreHref={(value) =>
            listAddress(path, listParams, { view: 'table', cursor: '', filters: { ...listParams.filters, [board.page.field]: value } })
          }
          zone={zone}
          locale={engine.model.locale}
        />
      ) : result && result.rows.length === 0 ? (
        <EmptyState title={filtered ? `No ${plural} match.` : fixed.where ? `No ${plural} here.` : `No ${plural} yet.`}>
          {filtered ? (
            <ButtonLink href={listAddress(path, cleared)}>Clear filters</ButtonLink>
          ) : canCreate ? (
            <ButtonLink href={`/${entity.plural}/new`} variant="primary">
              {createLabel}
            </ButtonLink>
          ) : null}
        </EmptyState>
      ) : result ? (
        <>
          <RecordTable
            caption={title}
            columns={columns}
            linkColumn={linkColumn}
            rows={result.rows}
            references={result.references}
            zone={zone}
            locale={engine.model.locale}
            sort={sort}
            sortHref={(next) => listAddress(path, listParams, { sort: next, cursor: '' })}
            recordHref={(id) => `/${entity.plural}/${id}`}
            selection={selection}
          />
          <Pagination
            firstHref={listParams.cursor ? listAddress(path, listParams, { cursor: '' }) : null}
            nextHref={result.nextCursor ? listAddress(path, listParams, { cursor: result.nextCursor }) : null}
          />
        </>
      ) : null}
    </div>
  );
}
