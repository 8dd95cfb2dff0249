import { Badge } from '../badge';
import { cn } from '../cn';

/** A reply shown before the server has it: being sent, or refused (its text is still in the box). */
export interface PendingReply {
  readonly text: string;
  readonly state: 'sending' | 'failed';
}

/**
 * The replies of a thread that are on their way, shown at once under the thread in the shape
 * of its messages, marked "Sending…" (or "Not sent" when the server refused, with the words
 * still in the reply box to send again); the real message takes their place when it is saved.
 * Announced politely to screen readers.
 */
export function PendingReplies({ replies }: { replies: readonly PendingReply[] }) {
  return (
    <div aria-live="polite">
      {replies.length > 0 ? (
        <ol aria-label="Your replies on their way" className="mb-4 space-y-3">
          {replies.map((reply, index) => (
            <li
              key={index}
              data-pending-reply={reply.state}
              className={cn('rounded-md border p-3', reply.state === 'failed' ? 'border-red-300 bg-red-50/60' : 'border-dashed border-zinc-300')}
            >
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-600">
                <span className="font-medium text-zinc-900">You</span>
                {reply.state === 'failed' ? <Badge tone="warning">Not sent</Badge> : <span>Sending…</span>}
              </div>
              <p className="mt-1 text-sm break-words whitespace-pre-wrap text-zinc-800">{reply.text}</p>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
