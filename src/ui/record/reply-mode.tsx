import type { ReplyMode } from './related-section-view';

/*
 * The reply box's two modes: a reply, and a note marked by a boolean field (an internal note).
 * Two radios styled as tabs rather than a checkbox one may forget: the note mode tints the box
 * and says who reads it, and the buttons say which one they send. All of it follows the checked
 * radio by CSS (`group-has-[…]/reply` on the form), so it holds before and without JavaScript.
 */

const TAB =
  'cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium text-zinc-600 hover:text-zinc-900 has-[:checked]:bg-white has-[:checked]:text-zinc-900 has-[:checked]:shadow-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent-500';

export function ReplyModeSwitch({ mode, replyLabel, note }: { mode: ReplyMode; replyLabel: string; note: boolean }) {
  return (
    <fieldset>
      <legend className="sr-only">Send as</legend>
      <div className="inline-flex gap-1 rounded-lg bg-zinc-100 p-1">
        <label className={TAB}>
          <input type="radio" name={mode.field} value="false" defaultChecked={!note} className="sr-only" />
          {replyLabel}
        </label>
        <label className={`${TAB} has-[:checked]:text-amber-900`}>
          <input type="radio" name={mode.field} value="true" defaultChecked={note} data-note-mode className="sr-only" />
          {mode.label}
        </label>
      </div>
      <p className="mt-2 hidden rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 group-has-[[data-note-mode]:checked]/reply:block">
        <strong className="font-semibold">{mode.label}.</strong> {mode.note ?? 'Not sent as a reply.'}
      </p>
    </fieldset>
  );
}

/** A button's words in each mode: only the checked mode's are shown (and read out). */
export function SentAs({ reply, note }: { reply: string; note: string }) {
  return (
    <>
      <span className="group-has-[[data-note-mode]:checked]/reply:hidden">{reply}</span>
      <span className="hidden group-has-[[data-note-mode]:checked]/reply:inline">{note}</span>
    </>
  );
}
