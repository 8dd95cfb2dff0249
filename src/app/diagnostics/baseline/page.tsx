import type { Metadata } from 'next';
import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import { buildModel } from '@/engine/spec/build';
import { requireDiagnostics } from '@/server/diagnostics';
import { ButtonLink } from '@/ui/button';
import type { FormFieldDescriptor } from '@/ui/forms/state';
import { listColumns } from '@/ui/columns';
import { ListFilters, type FilterControl } from '@/ui/list-filters';
import { PageHeader } from '@/ui/page-header';
import { Pagination } from '@/ui/pagination';
import { takeBulkAction } from '@/server/actions/bulk-actions';
import { BulkActionForm, type BulkTransitionChoice } from '@/ui/record/bulk-action-form';
import { bulkFinalTransitionQuestion } from '@/ui/record/transition-question';
import { BULK_ROW_INPUT } from '@/ui/record/bulk-action-state';
import { UTC } from '@/engine/time/zone';
import { RecordTable, type RowSelection } from '@/ui/record-table';
import { recordTitle } from '@/engine/ops/record-title';
import { SelectAllRows } from '@/ui/select-all-rows';
import { saveViewAction } from '@/server/actions/views';
import { COLUMN_FORM } from '@/server/list-query';
import { ColumnChooser } from '@/ui/list/column-chooser';
import { SaveViewForm } from '@/ui/list/view-forms';
import helpdesk from '../../../../examples/helpdesk/ninefold.spec';
import { knownEntity } from '@/ui/known-names';

/**
 * The benchmark's baseline (`npm run bench`): the ticket list page's body — header, saved view
 * and column controls, filters, bulk-transition toolbar, 50-row table with its selection column, pagination — rendered with
 * the same components from static rows, with no database and no session. Its req/s is what Next.js itself allows for this page.
 */

export const metadata: Metadata = { title: 'Baseline' };

// Built from the spec module itself, not from the running engine, so no database is opened.
const model = buildModel(helpdesk);
const ticket = knownEntity(model, 'ticket');
const visible = new Set(ticket.fields.map((field) => field.name));
const { columns, linkColumn } = listColumns(model, ticket, visible);

const STATES = ['new', 'open', 'pending', 'resolved', 'closed'];
const PRIORITIES = ['low', 'normal', 'high', 'urgent'];
const SUBJECTS = [
  'Cannot sign in after the update',
  'Invoice shows the wrong total',
  'Question about garden billing',
  'Export keeps timing out',
  'Password reset mail never arrives',
];
const ORGANIZATIONS = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [i + 1, `Organization ${i + 1}`]));
const USERS = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [i + 1, `Agent ${i + 1}`]));
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

const ROWS: RecordData[] = Array.from({ length: 50 }, (_, i) => {
  const at = new Date(T0 - i * 3_700_000);
  return {
    id: 100_000 - i,
    version: 1 + (i % 3),
    createdAt: at,
    updatedAt: at,
    createdBy: 1 + (i % 16),
    updatedBy: 1 + (i % 16),
    state: STATES[i % STATES.length],
    subject: `${SUBJECTS[i % SUBJECTS.length]} ${100_000 - i}`,
    description: 'The page stays blank after the latest update; reloading does not help.',
    priority: PRIORITIES[i % PRIORITIES.length],
    organization: i % 5 === 4 ? null : 1 + (i % 10),
    requester: 1 + ((i + 3) % 16),
    assignee: i % 3 === 2 ? null : 1 + (i % 16),
    dueAt: i % 4 === 3 ? null : new Date(T0 + (i + 1) * 86_400_000),
    resolvedAt: null,
  };
});

const REFERENCES: ReferenceTitles = { organization: ORGANIZATIONS, assignee: USERS, requester: USERS, createdBy: USERS, updatedBy: USERS };

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));
const FILTERS: FilterControl[] = [
  {
    param: 'state',
    label: 'State',
    kind: 'select',
    options: ticket.workflow!.states.map((s) => ({ value: s.name, label: s.label })),
    value: '',
  },
  { param: 'priority', label: 'Priority', kind: 'select', options: options(PRIORITIES), value: '' },
  {
    param: 'organization',
    label: 'Organization',
    kind: 'select',
    options: Object.entries(ORGANIZATIONS).map(([value, label]) => ({ value, label })),
    value: '',
  },
  {
    param: 'assignee',
    label: 'Assignee',
    kind: 'select',
    options: Object.entries(USERS).map(([value, label]) => ({ value, label })),
    value: '',
  },
];

// The bulk toolbar with the workflow's transitions (an agent on the list is offered nearly all).
const BULK_CHOICES: BulkTransitionChoice[] = ticket.workflow!.transitions.map((t) => ({
  name: t.name,
  label: t.label,
  ...(t.comment ? { comment: t.comment } : {}),
  question: bulkFinalTransitionQuestion(ticket, t.name),
}));
const BULK_FORM = 'bulk-tickets';
// The input the list offers for the assignee that "Start" requires.
const BULK_FIELDS: FormFieldDescriptor[] = [
  {
    name: 'assignee',
    label: 'Assignee',
    kind: 'select',
    required: false,
    options: Object.entries(USERS).map(([value, label]) => ({ value, label })),
    help: 'for “Start”, set on each selected ticket it is taken on; “Keep theirs” leaves the value they have.',
  },
];
const SELECTION: RowSelection = {
  form: BULK_FORM,
  name: BULK_ROW_INPUT,
  value: (record) => `${record.id}:${record.version}`,
  label: (record) => `Select ${recordTitle(ticket, record)}`,
  header: <SelectAllRows form={BULK_FORM} name={BULK_ROW_INPUT} label="Select all tickets on this page" />,
};

export default async function BaselinePage() {
  await requireDiagnostics();
  return (
    <div>
      <PageHeader
        spacing="mb-4"
        title={ticket.pluralLabel}
        description={ticket.description}
        actions={
          <ButtonLink href="/tickets/new" variant="primary">
            Open a ticket
          </ButtonLink>
        }
      />
      {/* As ListViewsBar shows them: the filters, then saving the list as a view and the column chooser, in one row. */}
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <ListFilters
          action="/diagnostics/baseline"
          filters={FILTERS}
          search={{ label: 'Search', value: '' }}
          sort={null}
          columns={[]}
          resetHref={null}
        />
        <div className="relative ml-auto flex items-center gap-2">
          <SaveViewForm action={saveViewAction} entity={ticket.name} query="" />
          <ColumnChooser
            choices={columns.map((c) => ({ name: c.name, label: c.label }))}
            shown={columns.map((c) => c.name)}
            defaults={ticket.list.columns}
            action="/diagnostics/baseline"
            keep={[]}
            form={COLUMN_FORM}
          />
        </div>
      </div>
      <BulkActionForm
        id={BULK_FORM}
        action={takeBulkAction.bind(null, ticket.name)}
        choices={BULK_CHOICES}
        fields={BULK_FIELDS}
        plural="tickets"
        controls
        cancelHref="/diagnostics/baseline"
      />
      <RecordTable
        caption={ticket.pluralLabel}
        columns={columns}
        linkColumn={linkColumn}
        rows={ROWS}
        references={REFERENCES}
        sort={ticket.list.sort}
        sortHref={(sort) => `/diagnostics/baseline?sort=${encodeURIComponent(sort)}`}
        recordHref={(id) => `/tickets/${id}`}
        selection={SELECTION}
        // A fixed page to measure rendering by: the same text whoever opens it.
        zone={UTC}
        locale={model.locale}
      />
      <Pagination firstHref={null} nextHref="/diagnostics/baseline?cursor=next" />
    </div>
  );
}
