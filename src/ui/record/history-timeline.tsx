import Link from 'next/link';
import { visitorMay } from '@/engine/access/policy';
import type { HistoryEntry, ReferenceTitles } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import { buttonClass } from '../button';
import { Card } from '../card';
import { cn } from '../cn';
import { TimeValue } from '../field-value';
import { formatDateTime } from '../format';
import { describeHistoryEntry, type HistoryItem } from './history-text';

const VERB: Record<string, string> = { created: 'Created', changed: 'Changed', deleted: 'Deleted' };

function Dot({ item }: { item: HistoryItem }) {
  const tone = item.states
    ? 'bg-accent-600 ring-accent-100'
    : item.verb === 'created'
      ? 'bg-emerald-500 ring-emerald-100'
      : 'bg-zinc-400 ring-zinc-100';
  return <span aria-hidden="true" className={cn('absolute top-1.5 left-0 size-2.5 rounded-full ring-4', tone)} />;
}

/**
 * The record's history, newest first: who, when, and what — created, the fields changed (from →
 * to), a transition with its states and comment. Prints only what ops handed over, which never
 * holds a field the viewer may not read.
 */
export function HistoryTimeline({
  entity,
  entries,
  titles,
  olderHref,
  newestHref,
  zone,
  locale,
}: {
  entity: EntityModel;
  entries: readonly HistoryEntry[];
  titles: ReferenceTitles;
  /** The next page of older entries, when there is one. */
  olderHref: string | null;
  /** Back to the newest entries, when this page is not the first. */
  newestHref: string | null;
  /** The viewer's zone (src/server/viewer-zone.ts). */
  zone: string;
  /** The locale numbers and amounts are written in (the model's `locale`). */
  locale: string;
}) {
  // Whether visitors may create these records: then an entry without an author may be theirs.
  const visitorsWrite = visitorMay(entity, 'create');
  return (
    <Card className="p-5">
      <section id="history" aria-labelledby="history-heading" className="scroll-mt-6">
        <h2 id="history-heading" className="text-sm font-semibold text-zinc-900">
          History
        </h2>
        {entries.length === 0 ? (
          <p className="mt-3 text-sm text-zinc-500">Nothing recorded yet.</p>
        ) : (
          <ol className="mt-4" aria-label="History">
            {entries.map((entry, index) => {
              const item = describeHistoryEntry(entity, entry, titles, zone, locale);
              const last = index === entries.length - 1;
              return (
                <li key={entry.id} className={cn('relative pl-7', !last && 'pb-5')} data-history-entry={entry.action}>
                  {!last ? <span aria-hidden="true" className="absolute top-4 bottom-0 left-[4.5px] w-px bg-zinc-200" /> : null}
                  <Dot item={item} />
                  <p className="text-sm text-zinc-900">
                    <span className="font-medium">{VERB[item.verb] ?? item.verb}</span>
                    {item.states ? (
                      <>
                        {': '}
                        <span className="text-zinc-700">
                          {item.states.from} → {item.states.to}
                        </span>
                      </>
                    ) : null}
                    {item.cause ? <span className="text-zinc-500"> {item.cause}</span> : null}
                  </p>
                  <p className="mt-0.5 text-xs text-zinc-500">
                    {/* No author: the scheduler (an automatic transition), hidden from this viewer by the field rules, a visitor who was not signed in (the public role), or a user since removed. */}
                    <span>
                      {entry.actor?.name ??
                        (entry.transition?.automatic
                          ? 'Automatically'
                          : entry.actorHidden
                            ? 'Someone'
                            : visitorsWrite
                              ? 'A visitor or a removed user'
                              : 'A removed user')}
                    </span>
                    <span aria-hidden="true"> · </span>
                    <TimeValue time={formatDateTime(entry.at, zone)} />
                  </p>
                  {item.changes.length > 0 ? (
                    <ul className="mt-2 space-y-0.5 text-sm text-zinc-700">
                      {item.changes.map((change) => (
                        <li key={change.field} className="break-words">
                          <span className="text-zinc-500">{change.label}:</span>{' '}
                          {change.sentence ?? (
                            <>
                              {change.from} <span className="text-zinc-400">→</span> {change.to}
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {item.comment ? (
                    <blockquote className="mt-2 rounded-md border-l-2 border-zinc-300 bg-zinc-50 px-3 py-2 text-sm whitespace-pre-line text-zinc-700">
                      {item.comment}
                    </blockquote>
                  ) : null}
                </li>
              );
            })}
          </ol>
        )}
        {olderHref || newestHref ? (
          <nav aria-label="History pages" className="mt-5 flex items-center justify-between gap-2 border-t border-zinc-100 pt-4">
            <div>
              {newestHref ? (
                <Link href={newestHref} className={buttonClass('ghost')}>
                  Newest
                </Link>
              ) : null}
            </div>
            <div>
              {olderHref ? (
                <Link href={olderHref} className={buttonClass('secondary')}>
                  Show older
                </Link>
              ) : null}
            </div>
          </nav>
        ) : null}
      </section>
    </Card>
  );
}
