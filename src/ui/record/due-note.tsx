import { cn } from '../cn';
import { dueParts, type DueNote } from './sla';

/** "SLA 24 h · due Tue, Mar 4, 14:00 UTC", shown under the field it depends on; red and marked when overdue. */
export function DueNoteLine({ note }: { note: DueNote }) {
  const { promise, due } = dueParts(note);
  return (
    <p
      className={cn('mt-1 flex flex-wrap items-center gap-x-1.5 text-xs', note.overdue ? 'text-red-700' : 'text-zinc-500')}
      title={note.description}
      data-constant={note.constant}
    >
      <span className="font-medium">{promise}</span>
      <span aria-hidden="true">·</span>
      <span>
        due <time dateTime={note.due.toISOString()} className="tabular-nums">{due}</time>
      </span>
      {note.overdue ? (
        <span className="rounded-full bg-red-50 px-1.5 py-px font-medium text-red-700 ring-1 ring-red-600/20 ring-inset">overdue</span>
      ) : null}
    </p>
  );
}
