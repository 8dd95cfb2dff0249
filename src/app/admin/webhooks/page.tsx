import type { Metadata } from 'next';
import Link from 'next/link';
import { RETENTION_DAYS } from '@/engine/notify/retention';
import { DELIVERY_STATUSES, type DeliveryStatus, type DeliveryView } from '@/engine/notify/webhooks/deliveries';
import { sendWebhookAgainAction } from '@/server/actions/webhooks';
import { getEngine } from '@/server/engine';
import { requireAdmin } from '@/server/session';
import { viewerZone } from '@/server/viewer-zone';
import { Badge, type BadgeTone } from '@/ui/badge';
import { buttonClass } from '@/ui/button';
import { Card } from '@/ui/card';
import { formatDateTime } from '@/ui/format';
import { ButtonForm } from '@/ui/forms/account-forms';
import { PageHeader } from '@/ui/page-header';
import { TableScroll } from '@/ui/table-scroll';

export const metadata: Metadata = { title: 'Webhooks' };

const PAGE = '/admin/webhooks';
const TONE: Record<DeliveryStatus, BadgeTone> = { pending: 'warning', delivered: 'success', failed: 'neutral' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function Time({ value, zone }: { value: Date; zone: string }) {
  const formatted = formatDateTime(value, zone);
  return formatted ? <time dateTime={formatted.iso}>{formatted.text}</time> : null;
}

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/** Administrators: each webhook, on or off, and every delivery newest first with its attempts and "Send again". */
export default async function WebhooksPage({ searchParams }: { searchParams: SearchParams }) {
  const actor = await requireAdmin(PAGE);
  const [engine, zone, search] = await Promise.all([getEngine(), viewerZone(), searchParams]);
  const webhooks = engine.webhooks.states(actor);
  // Only values the page offers are passed on: anything else shows the whole list.
  const status = DELIVERY_STATUSES.find((s) => s === one(search.status));
  const webhook = webhooks.find((w) => w.name === one(search.webhook))?.name;
  const cursor = /^[1-9][0-9]{0,15}$/.test(one(search.cursor) ?? '') ? one(search.cursor) : undefined;
  const page = await engine.webhooks.deliveries(actor, { status, webhook, cursor });
  const older = page.nextCursor
    ? `${PAGE}?${new URLSearchParams({ ...(status ? { status } : {}), ...(webhook ? { webhook } : {}), cursor: page.nextCursor })}`
    : null;

  return (
    <div className="space-y-8">
      <PageHeader
        title="Webhooks"
        description={`What the application posts to other systems, every attempt, and sending a delivery again. Finished deliveries are kept ${RETENTION_DAYS.webhooks} days.`}
      />

      {webhooks.length === 0 ? (
        <p className="text-sm text-zinc-600">This application declares no webhooks.</p>
      ) : (
        <section aria-labelledby="webhooks-heading" className="space-y-3">
          <h2 id="webhooks-heading" className="text-base font-semibold text-zinc-900">
            Receivers
          </h2>
          <ul className="space-y-2 text-sm">
            {webhooks.map((w) => (
              <li key={w.name} className="flex flex-wrap items-center gap-2">
                <span className="font-mono">{w.name}</span>
                {w.off ? <Badge tone="warning">Off: {w.off}</Badge> : <Badge tone="success">On</Badge>}
                <span className="text-zinc-600">
                  {w.events.join(', ')} · read as {w.role}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="deliveries-heading" className="space-y-4">
        <h2 id="deliveries-heading" className="text-base font-semibold text-zinc-900">
          Deliveries
        </h2>
        <form method="get" action={PAGE} className="flex flex-wrap items-end gap-3 text-sm">
          <label className="flex flex-col gap-1">
            Status
            <select name="status" defaultValue={status ?? ''} className="rounded-md border border-zinc-300 px-2 py-1.5">
              <option value="">Any</option>
              {DELIVERY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1">
            Webhook
            <select name="webhook" defaultValue={webhook ?? ''} className="rounded-md border border-zinc-300 px-2 py-1.5">
              <option value="">Any</option>
              {webhooks.map((w) => (
                <option key={w.name} value={w.name}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={buttonClass('secondary')}>
            Filter
          </button>
        </form>

        {page.items.length === 0 ? <p className="text-sm text-zinc-600">No deliveries.</p> : null}
        <ol aria-label="Deliveries" className="space-y-3">
          {page.items.map((delivery) => (
            <li key={delivery.id}>
              <DeliveryCard delivery={delivery} zone={zone} />
            </li>
          ))}
        </ol>
        {older ? (
          <Link href={older} className={buttonClass('secondary')}>
            Older deliveries
          </Link>
        ) : null}
      </section>
    </div>
  );
}

function DeliveryCard({ delivery, zone }: { delivery: DeliveryView; zone: string }) {
  return (
    <Card className="space-y-3 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-mono font-medium text-zinc-900">{delivery.eventType}</span>
            <Badge tone={TONE[delivery.status]}>{delivery.status}</Badge>
            <span className="text-zinc-600">
              to {delivery.webhook} · {delivery.entity} {delivery.recordId}
            </span>
          </div>
          <p className="text-zinc-600">
            Created <Time value={delivery.createdAt} zone={zone} /> ·{' '}
            {delivery.attempts === 1 ? '1 attempt' : `${delivery.attempts} attempts`}
            {delivery.nextAttemptAt ? (
              <>
                {' '}
                · next <Time value={delivery.nextAttemptAt} zone={zone} />
              </>
            ) : null}
            {delivery.lastError ? ` · last: ${delivery.lastError}` : null}
          </p>
        </div>
        <ButtonForm
          action={sendWebhookAgainAction}
          fields={{ deliveryId: delivery.id }}
          pendingLabel="Queuing…"
          label={`Send delivery ${delivery.id} again`}
        >
          Send again
        </ButtonForm>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-zinc-700">Payload and attempts</summary>
        <pre className="mt-2 overflow-x-auto rounded-md bg-zinc-50 p-3 text-xs">{prettyJson(delivery.payload)}</pre>
        {delivery.log.length > 0 ? (
          <TableScroll label={`Attempts of delivery ${delivery.id}`} className="mt-2 rounded-md border border-zinc-200">
            <table className="min-w-full divide-y divide-zinc-200 text-xs">
              <caption className="sr-only">Attempts of delivery {delivery.id}</caption>
              <thead className="bg-zinc-50 text-left text-zinc-500">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Time
                  </th>
                  <th scope="col" className="px-3 py-2">
                    HTTP status
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Duration
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Error
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Answer
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {delivery.log.map((attempt, index) => (
                  <tr key={index}>
                    <td className="px-3 py-2 whitespace-nowrap">
                      <Time value={attempt.at} zone={zone} />
                    </td>
                    <td className="px-3 py-2">{attempt.httpStatus ?? 'none'}</td>
                    <td className="px-3 py-2">{attempt.durationMs} ms</td>
                    <td className="px-3 py-2">{attempt.error ?? ''}</td>
                    <td className="px-3 py-2 font-mono break-all">{attempt.responseExcerpt ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : (
          <p className="mt-2 text-zinc-600">Not tried yet.</p>
        )}
      </details>
    </Card>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
