'use client';

import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { cn } from '../cn';
import { closeShellDialog, type ShellDialog } from './dialog-store';

/**
 * A native modal <dialog> of the shell, open while it is mounted: `showModal` makes the rest of
 * the page inert and keeps Tab inside, Escape closes it, and a click on the backdrop too. On
 * closing, the focus goes back where it was before (the browser does so; this makes sure when
 * the element is still there and nothing else took the focus meanwhile).
 */
export function ModalDialog({
  which,
  labelledBy,
  dialogRef,
  className,
  children,
}: {
  which: ShellDialog;
  labelledBy: string;
  dialogRef?: RefObject<HTMLDialogElement | null>;
  className?: string;
  children: ReactNode;
}) {
  const own = useRef<HTMLDialogElement>(null);
  const ref = dialogRef ?? own;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    // The store learns at once: 'close' comes a task later than Escape's 'cancel', and a Ctrl+K
    // pressed in between would otherwise find the palette still "open" and close it again.
    const onClose = () => closeShellDialog(which);
    dialog.addEventListener('cancel', onClose);
    dialog.addEventListener('close', onClose);
    return () => {
      dialog.removeEventListener('cancel', onClose);
      dialog.removeEventListener('close', onClose);
      if (dialog.open) dialog.close();
      const focused = document.activeElement;
      if (opener?.isConnected && (focused === null || focused === document.body || dialog.contains(focused))) opener.focus();
    };
  }, [ref, which]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      // A click on the backdrop lands on the dialog element itself, outside its content.
      onClick={(event) => {
        if (event.target === event.currentTarget) closeShellDialog(which);
      }}
      className={cn(
        'm-0 mx-auto mt-[10vh] max-h-[80vh] w-[min(40rem,calc(100vw-1.5rem))] max-w-none overflow-hidden rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl backdrop:bg-black/50',
        className,
      )}
    >
      {children}
    </dialog>
  );
}
