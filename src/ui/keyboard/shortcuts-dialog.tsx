'use client';

import { ModalDialog } from './modal-dialog';
import { useIsApple } from './platform';
import { shortcutList } from './shortcut-list';

/** The "?" dialog: every keyboard shortcut, grouped by where it works. */
export function ShortcutsDialog() {
  const groups = shortcutList(useIsApple());
  return (
    <ModalDialog which="shortcuts" labelledBy="shortcuts-title">
      <div className="flex items-center justify-between gap-4 border-b border-zinc-200 px-5 py-3">
        <h2 id="shortcuts-title" className="text-base font-semibold">
          Keyboard shortcuts
        </h2>
        <form method="dialog">
          <button type="submit" autoFocus className="rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900">
            Close
          </button>
        </form>
      </div>
      <div className="max-h-[calc(80vh-3.5rem)] space-y-5 overflow-y-auto px-5 py-4">
        {groups.map((group) => (
          <section key={group.title} aria-labelledby={`shortcuts-${group.title}`}>
            <h3 id={`shortcuts-${group.title}`} className="mb-2 text-xs font-semibold tracking-wide text-zinc-600 uppercase">
              {group.title}
            </h3>
            <dl className="divide-y divide-zinc-100 text-sm">
              {group.shortcuts.map((shortcut) => (
                <div key={shortcut.does} className="flex items-center justify-between gap-4 py-1.5">
                  <dt className="text-zinc-800">{shortcut.does}</dt>
                  <dd className="flex shrink-0 items-center gap-1">
                    {shortcut.keys.map((key, index) => (
                      <span key={key} className="flex items-center gap-1">
                        {index > 0 ? <span className="text-xs text-zinc-600">{shortcut.chord ? '+' : 'then'}</span> : null}
                        <kbd className="min-w-6 rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 text-center font-mono text-xs text-zinc-800">
                          {key}
                        </kbd>
                      </span>
                    ))}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
        <p className="text-xs text-zinc-600">Shortcuts do nothing while you type in a field.</p>
      </div>
    </ModalDialog>
  );
}
