'use client';

import { useFormStatus } from 'react-dom';
import { Badge } from '../badge';
import { cn } from '../cn';

/**
 * A reply shown before the server has it, inside its form (the form's status says what is being
 * sent): at once under the thread, in the shape of its messages, marked "Sending…" — or, after
 * the server refused it, "Not sent", its words still in the box to send again. The real message
 * takes its place when saved. Without JavaScript the form is a plain post and this stays empty.
 */
export function PendingReply({
  field,
  failed,
}: {
  /** The field holding the message. */
  field: string;
  /** The words of the last reply the server refused, if it did. */
  failed?: string;
}) {
  const { pending, data } = useFormStatus();
  const sent = pending ? data?.get(field) : null;
  const sending = typeof sent === 'string' && sent.trim() !== '' ? sent : null;
  const text = sending ?? (pending ? null : failed?.trim() ? failed : null);
  return (
    <div aria-live="polite" className="empty:hidden">
      {text !== null ? (
        <div
          data-pending-reply={sending !== null ? 'sending' : 'failed'}
          className={cn('rounded-md border p-3', sending !== null ? 'border-dashed border-zinc-300' : 'border-red-300 bg-red-50/60')}
        >
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-600">
            <span className="font-medium text-zinc-900">You</span>
            {sending !== null ? <span>Sending…</span> : <Badge tone="warning">Not sent</Badge>}
          </div>
          <p className="mt-1 text-sm break-words whitespace-pre-wrap text-zinc-800">{text}</p>
        </div>
      ) : null}
    </div>
  );
}
