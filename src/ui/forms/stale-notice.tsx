import { buttonClass } from '../button';
import type { StaleNotice } from './state';

/**
 * Above an edit form refused because someone else saved first: what changed since the version
 * the user saw, that their typed values are still in the form, and a way to start again from
 * the current version instead. A plain link, so the reload drops the typed values with or
 * without JavaScript.
 */
export function StaleNoticeView({ id, notice }: { id: string; notice: StaleNotice }) {
  const { changes } = notice;
  return (
    <div id={id} role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p className="font-medium">{notice.title}</p>
      {changes === null ? (
        <p className="mt-1">It changed after you opened this form.</p>
      ) : changes.length === 0 ? (
        <p className="mt-1">It changed after you opened this form, though none of the fields you can see did.</p>
      ) : (
        <>
          <p className="mt-1">Changed since you opened this form:</p>
          <ul className="mt-2 space-y-1" aria-label="What changed">
            {changes.map((change) => (
              <li key={change.field} className="flex flex-wrap items-baseline gap-x-1.5">
                <span className="font-medium">{change.label}:</span>
                <span className="text-amber-800 line-through decoration-amber-400">{change.from}</span>
                <span aria-hidden="true">→</span>
                <span className="sr-only">now</span>
                <span className="font-medium text-zinc-900">{change.to}</span>
                {change.kept === true ? (
                  <span className="text-xs text-amber-800">(you changed it too: your value is kept below)</span>
                ) : null}
                {change.kept === false ? <span className="text-xs text-amber-800">(now in the form)</span> : null}
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="mt-3">What you typed is kept below. Save again to apply it to the current version, or reload to start over from it.</p>
      <div className="mt-3">
        {/* A full load, not a client navigation: the form must start afresh from the record as it is now. */}
        <a href={notice.reloadHref} className={buttonClass('secondary')}>
          Reload
        </a>
      </div>
    </div>
  );
}
