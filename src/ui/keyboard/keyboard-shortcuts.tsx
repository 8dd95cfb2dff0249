'use client';

import dynamic from 'next/dynamic';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { startNavigationProgress } from '../loading/progress-store';
import type { SearchRecords } from '../palette/palette-groups';
import type { PalettePlace } from '../palette/palette-items';
import { currentRecordCommands } from '../palette/record-commands';
import { closeShellDialog, currentShellDialog, openShellDialog, useShellDialog } from './dialog-store';
import { moveRowFocus, toggleRowSelection } from './list-rows';
import { SEQUENCE_MS, shortcutFor, type KeyTarget } from './shortcut-keys';

// Loaded when first opened: pages carry only this listener until someone asks for them.
const CommandPalette = dynamic(() => import('../palette/command-palette').then((m) => m.CommandPalette), { ssr: false });
const ShortcutsDialog = dynamic(() => import('./shortcuts-dialog').then((m) => m.ShortcutsDialog), { ssr: false });

function keyTarget(target: EventTarget | null): KeyTarget | null {
  if (!(target instanceof HTMLElement)) return null;
  return {
    tagName: target.tagName,
    type: target instanceof HTMLInputElement ? target.type : undefined,
    isContentEditable: target.isContentEditable,
  };
}

/**
 * The keyboard of every signed-in page, one listener on the document: Ctrl/Cmd+K the palette,
 * `?` the shortcuts, `j`/`k`/`x` the rows of a list, `e` edits the record shown, `/` the list's
 * search, `g` `h` home. Single keys never fire while typing in a field, with a modifier held, or
 * while a dialog is open. It also shows the palette and the shortcuts when they are open.
 */
export function KeyboardShortcuts({ places, searchRecords }: { places: readonly PalettePlace[]; searchRecords: SearchRecords }) {
  const router = useRouter();
  const open = useShellDialog();

  useEffect(() => {
    let pending: { key: string; at: number } | null = null;
    const go = (href: string) => {
      startNavigationProgress(href);
      router.push(href);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return;
      const earlier = pending && event.timeStamp - pending.at < SEQUENCE_MS ? pending.key : null;
      const { action, pending: next } = shortcutFor(
        {
          key: event.key,
          ctrlKey: event.ctrlKey,
          metaKey: event.metaKey,
          altKey: event.altKey,
          isComposing: event.isComposing,
          target: keyTarget(event.target),
        },
        earlier,
      );
      pending = next === null ? null : { key: next, at: event.timeStamp };
      if (action === null) return;
      if (action === 'palette') {
        event.preventDefault();
        // Again closes it; over the shortcuts, it takes their place.
        if (currentShellDialog() === 'palette') closeShellDialog('palette');
        else openShellDialog('palette');
        return;
      }
      // A dialog has the keys while it is open.
      if (document.querySelector('dialog[open]')) return;
      let handled = true;
      switch (action) {
        case 'help':
          openShellDialog('shortcuts');
          break;
        case 'next-row':
          handled = moveRowFocus(1);
          break;
        case 'previous-row':
          handled = moveRowFocus(-1);
          break;
        case 'select-row':
          handled = toggleRowSelection();
          break;
        case 'edit': {
          const edit = currentRecordCommands()?.commands.find((command) => command.kind === 'link' && command.shortcut === 'edit');
          if (edit?.kind === 'link') go(edit.href);
          else handled = false;
          break;
        }
        case 'search': {
          const box = document.querySelector<HTMLInputElement>('#main input[type="search"]');
          if (box && box.getClientRects().length > 0) {
            box.focus();
            box.select();
          } else handled = false;
          break;
        }
        case 'home':
          go('/');
          break;
      }
      if (handled) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    // Says when the keys are handled: the page is usable by mouse a moment before (a test or a
    // script driving the keyboard waits for this rather than guessing).
    document.documentElement.dataset.shortcuts = 'on';
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      delete document.documentElement.dataset.shortcuts;
    };
  }, [router]);

  if (open === 'palette') return <CommandPalette places={places} searchRecords={searchRecords} />;
  if (open === 'shortcuts') return <ShortcutsDialog />;
  return null;
}
