import { forbidden } from 'next/navigation';
import type { Metadata } from 'next';
import Link from 'next/link';
import type { Ops } from '@/engine/ops/ops';
import type { Actor, ListPage as ListResult, ListQuery } from '@/engine/ops/types';
import { parseSort } from '@/engine/spec/build';
import { entityForPlural, newRecordLabel } from '@/server/entity-route';
import { asNinefoldError } from '@/server/errors';
import { describeFilters } from '@/server/list-filters';
import { listHref, parseListParams, toListQuery, type RawSearchParams } from '@/server/list-query';
import { takeBulkTransition } from '@/server/actions/bulk-transitions';
import { describeBulkFields } from '@/server/bulk-fields';
import { requireActor } from '@/server/session';
import { Alert } from '@/ui/alert';
import { ButtonLink } from '@/ui/button';
import { listColumns } from '@/ui/columns';
import { EmptyState } from '@/ui/empty-state';
import { ListFilters } from '@/ui/list-filters';
import { PageHeader } from '@/ui/page-header';
import { Pagination } from '@/ui/pagination';
import { BulkTransitionForm, type BulkTransitionChoice } from '@/ui/record/bulk-transition-form';
import { BULK_ROW_INPUT } from '@/ui/record/bulk-transition-state';
import { RecordTable, type RowSelection } from '@/ui/record-table';
import { recordTitle } from '@/ui/record-title';
import { SelectAllRows } from '@/ui/select-all-rows';

/** A page of the list, or why ops refused the query (a bad sort, filter or cursor in the address). */
async function loadList(ops: Ops, actor: Actor, entity: string, query: ListQuery): Promise<{ ok: true; page: ListResult } | { ok: false; message: string }> {
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

/** The query string of the address, so that signing in comes back to the same list. */
function searchSuffix(raw: RawSearchParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(key, item);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

type Props = { params: Promise<{ plural: string }>; searchParams: Promise<RawSearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { plural } = await params;
  const { entity } = await entityForPlural(plural);
  return { title: entity.pluralLabel };
}

export default async function ListPage({ params, searchParams }: Props) {
  const [{ plural }, rawSearch] = await Promise.all([params, searchParams]);
  // Unknown addresses are a 404 for everyone; what is behind a known one needs a sign-in.
  const { engine, entity } = await entityForPlural(plural);
  const actor = await requireActor(`/${plural}${searchSuffix(rawSearch)}`);
  const { params: listParams, problem } = parseListParams(entity, rawSearch);
  const access = engine.ops.access(actor, entity.name);
  const readable = new Set(access.readable);

  // Bulk transitions: only those the actor may take on some record (ops decides per row); none, no checkboxes and no toolbar.
  const bulkChoices: BulkTransitionChoice[] = (entity.workflow?.transitions ?? [])
    .filter((t) => access.transitions[t.name])
    .map((t) => ({ name: t.name, label: t.label, ...(t.comment ? { comment: t.comment } : {}) }));

  const [filters, listing, bulkFields] = await Promise.all([
    describeFilters(engine.ops, actor, entity, readable, listParams),
    problem ? Promise.resolve({ ok: false as const, message: problem }) : loadList(engine.ops, actor, entity.name, toListQuery(listParams)),
    describeBulkFields({ ops: engine.ops, actor, model: engine.model, entity, offered: bulkChoices.map((c) => c.name), writable: new Set(access.writable.update) }),
  ]);
  const result = listing.ok ? listing.page : null;
  const failure = listing.ok ? null : listing.message;

  const { columns, linkColumn } = listColumns(engine.model, entity, readable);
  const sort = result?.sort[0] ?? parseSort(listParams.sort || (entity.list.sort.direction === 'desc' ? `-${entity.list.sort.field}` : entity.list.sort.field));
  const filtered = listParams.q.trim() !== '' || Object.values(listParams.filters).some((v) => v !== '');
  const cleared = { sort: listParams.sort, q: '', cursor: '', filters: {} };
  const createLabel = newRecordLabel(engine.model, entity);
  const canCreate = access.actions.create;
  // The search covers every searchable field: offered only when the actor may read them all.
  const searchable = entity.searchFields.length > 0 && entity.searchFields.every((name) => readable.has(name));
  const bulkForm = `bulk-${entity.plural}`;
  const rows = result?.rows ?? [];
  const selection: RowSelection | undefined =
    bulkChoices.length > 0
      ? {
          form: bulkForm,
          name: BULK_ROW_INPUT,
          value: (record) => `${record.id}:${record.version}`,
          label: (record) => `Select ${recordTitle(entity, record)}`,
          header: (
            <SelectAllRows
              key={listHref(entity.plural, listParams)}
              form={bulkForm}
              name={BULK_ROW_INPUT}
              label={`Select all ${entity.pluralLabel.toLowerCase()} on this page`}
            />
          ),
        }
      : undefined;

  return (
    <div>
      <PageHeader
        title={entity.pluralLabel}
        description={entity.description}
        actions={canCreate ? <ButtonLink href={`/${entity.plural}/new`} variant="primary">{createLabel}</ButtonLink> : null}
      />
      <ListFilters
        action={`/${entity.plural}`}
        filters={filters}
        search={searchable ? { label: 'Search', value: listParams.q } : null}
        sort={listParams.sort || null}
        resetHref={filtered ? listHref(entity.plural, cleared) : null}
        stateKey={listHref(entity.plural, listParams)}
      />
      {selection && failure === null ? (
        <BulkTransitionForm
          key={listHref(entity.plural, listParams)}
          id={bulkForm}
          action={takeBulkTransition.bind(null, entity.name)}
          choices={bulkChoices}
          fields={bulkFields}
          plural={entity.pluralLabel.toLowerCase()}
          controls={rows.length > 0}
        />
      ) : null}
      {failure !== null ? (
        <Alert title="This list cannot be shown with these settings.">
          <p>{failure}</p>
          <p className="mt-2">
            <Link href={`/${entity.plural}`} className="font-medium underline underline-offset-2">
              Show the list from the start
            </Link>
          </p>
        </Alert>
      ) : result && result.rows.length === 0 ? (
        <EmptyState title={filtered ? `No ${entity.pluralLabel.toLowerCase()} match.` : `No ${entity.pluralLabel.toLowerCase()} yet.`}>
          {filtered ? (
            <ButtonLink href={listHref(entity.plural, cleared)}>Clear filters</ButtonLink>
          ) : canCreate ? (
            <ButtonLink href={`/${entity.plural}/new`} variant="primary">{createLabel}</ButtonLink>
          ) : null}
        </EmptyState>
      ) : result ? (
        <>
          <RecordTable
            caption={entity.pluralLabel}
            columns={columns}
            linkColumn={linkColumn}
            rows={result.rows}
            references={result.references}
            sort={sort}
            sortHref={(next) => listHref(entity.plural, listParams, { sort: next, cursor: '' })}
            recordHref={(id) => `/${entity.plural}/${id}`}
            selection={selection}
          />
          <Pagination
            firstHref={listParams.cursor ? listHref(entity.plural, listParams, { cursor: '' }) : null}
            nextHref={result.nextCursor ? listHref(entity.plural, listParams, { cursor: result.nextCursor }) : null}
          />
        </>
      ) : null}
    </div>
  );
}
