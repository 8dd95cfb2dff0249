import type { AppModel } from '@/engine/spec/model';
import { parseSort } from '@/engine/spec/build';
import { Card } from '../card';
import { listColumns } from '../columns';
import type { RecordFormAction } from '../forms/record-form';
import { Pagination } from '../pagination';
import { RecordTable } from '../record-table';
import { RelatedAddForm } from './related-add-form';
import type { RelatedSectionView } from './related-section-view';
import { RelatedThread } from './related-thread';
import { inSentence } from '@/engine/spec/naming';
import { formatCount } from '@/engine/numbers/format';

/** "3", or "more than 1,000" when counting stopped there; the number in `locale`. */
function countText(count: { count: number; more: boolean }, locale: string): string {
  return count.more ? `more than ${formatCount(count.count, locale)}` : formatCount(count.count, locale);
}

/**
 * One section of related records on a detail page: its title with how many the viewer may see,
 * the records as a table or a thread, its own pagination, and the form adding one in place.
 */
export function RelatedSection({
  model,
  view,
  anchor,
  action,
  zone,
}: {
  model: AppModel;
  view: RelatedSectionView;
  /** The section's element id, which links and redirects come back to. */
  anchor: string;
  /** The bound server action adding a record here; unused when the viewer may not add. */
  action: RecordFormAction;
  /** The viewer's zone (src/server/viewer-zone.ts), for date-times. */
  zone: string;
}) {
  const { section, entity, page, count, add } = view;
  const headingId = `${anchor}-heading`;
  const thread = section.display === 'thread';
  const { columns, linkColumn } = listColumns(model, entity, new Set(view.readable), section.columns);
  return (
    <Card className="p-5">
      <section id={anchor} aria-labelledby={headingId} className="scroll-mt-6">
        <div className="flex items-baseline justify-between gap-2">
          <h2 id={headingId} className="flex items-baseline gap-2 text-sm font-semibold text-zinc-900">
            {section.label}
            <span className="text-xs font-normal text-zinc-500" data-testid="related-count">
              {countText(count, model.locale)}
            </span>
          </h2>
          {/* The reply box is below the whole thread: one step to it, without scrolling past every message. */}
          {thread && add && page.rows.length > 2 ? (
            <a href={`#${anchor}-reply`} className="text-sm font-medium text-accent-700 hover:underline">
              Write a reply
            </a>
          ) : null}
        </div>
        <div className="mt-3">
          {page.rows.length === 0 ? (
            <p className="text-sm text-zinc-500">{thread ? 'No messages yet.' : `No ${inSentence(entity.pluralLabel)} yet.`}</p>
          ) : thread ? (
            <RelatedThread zone={zone} section={section} entity={entity} rows={page.rows} references={page.references} files={view.files} />
          ) : (
            <RecordTable
              zone={zone}
              locale={model.locale}
              columns={columns.map((c) => ({ ...c, sortable: false }))}
              linkColumn={linkColumn}
              rows={page.rows}
              references={page.references}
              sort={parseSort(section.sort)}
              sortHref={() => ''}
              recordHref={(id) => `/${entity.plural}/${id}`}
              caption={section.label}
            />
          )}
          <Pagination firstHref={view.firstHref} nextHref={view.nextHref} />
        </div>
        {add ? (
          <div className="mt-5 border-t border-zinc-200 pt-4">
            <RelatedAddForm
              id={`${anchor}-reply`}
              action={action}
              initialValues={add.values}
              fields={add.fields}
              checks={add.checks}
              submitLabel={thread ? 'Reply' : `Add ${inSentence(entity.label)}`}
              options={add.replyOptions}
              title={thread ? 'Reply' : `Add ${inSentence(entity.label)}`}
              body={thread ? section.body : null}
              mode={add.mode}
              notice={add.notice}
            />
          </div>
        ) : null}
      </section>
    </Card>
  );
}
