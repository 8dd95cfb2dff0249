import Link from 'next/link';
import type { EntityModel } from '@/engine/spec/model';
import { inSentence } from '@/engine/spec/naming';
import { formatCount } from '@/engine/numbers/format';
import type { Counterpart } from './counterpart-view';
import { recordTitle } from '@/engine/ops/record-title';
import { Card } from '../card';
import { StateBadge } from '../state-badge';

/** Who the conversation is with (a ticket's requester) and their other records still in progress, linked. */
export function CounterpartCard({ entity, counterpart, locale }: { entity: EntityModel; counterpart: Counterpart; locale: string }) {
  const { others, count } = counterpart;
  const total = count.more ? `more than ${formatCount(count.count, locale)}` : formatCount(count.count, locale);
  return (
    <Card className="p-5">
      <section aria-labelledby="counterpart-heading" className="text-sm">
        <h2 id="counterpart-heading" className="text-xs font-medium tracking-wide text-zinc-500 uppercase">
          {counterpart.label}
        </h2>
        <p className="mt-1 font-medium text-zinc-900">{counterpart.self ? `You (${counterpart.name})` : counterpart.name}</p>
        <h3 className="mt-4 text-xs font-medium text-zinc-500">
          {counterpart.self ? 'Your' : 'Their'} other {inSentence(entity.pluralLabel)} in progress: {total}
        </h3>
        {others.length > 0 ? (
          <ul className="mt-2 space-y-2">
            {others.map((row) => (
              <li key={row.id} className="flex items-start justify-between gap-2">
                <Link href={`/${entity.plural}/${row.id}`} className="min-w-0 truncate text-accent-700 hover:underline">
                  #{row.id} {recordTitle(entity, row, {})}
                </Link>
                {entity.workflow ? <StateBadge workflow={entity.workflow} state={row[entity.workflow.field]} /> : null}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </Card>
  );
}
