import { dueText, type DueNote } from './sla';

/** "SLA 24 h for normal priority · Time to resolution promised for each priority.", under the due time it explains. */
export function DueNoteLine({ note }: { note: DueNote }) {
  return (
    <p className="mt-1 text-xs text-zinc-500" data-constant={note.constant}>
      <span className="font-medium text-zinc-600">{dueText(note)}</span>
      {note.description ? <span> · {note.description}</span> : null}
    </p>
  );
}
