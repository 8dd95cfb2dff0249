'use client';

import { useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState, useTransition, type ChangeEvent, type FormEvent, type ReactNode } from 'react';

/** How long typing pauses before a search applies. */
const TYPING_PAUSE_MS = 400;

/** The address of a GET form's values, without empty ones (the address a user copies stays clean). */
function cleanAddress(form: HTMLFormElement): string {
  const search = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string' && value.trim() !== '') search.append(name, value);
  }
  const path = new URL(form.action, window.location.href).pathname;
  // Commas as they are (`columns=id,subject`), as the server writes list addresses.
  const query = search.toString().replace(/%2C/gi, ',');
  return query ? `${path}?${query}` : path;
}

const typed = (element: EventTarget) => element instanceof HTMLInputElement && ['search', 'text', 'number'].includes(element.type);

/**
 * A list's GET form of filters that apply as they change: a select at once, typing after a
 * short pause (and at once on Enter), each through the clean address of the form's values, so
 * that back, forward and reload show the same list. Focus stays in the field being edited:
 * nothing is remounted, and values coming from the address (back, forward) are written into the
 * fields the user is not in. Without JavaScript it is the plain GET form it renders, with its
 * Apply button (which `data-enhanced` lets the form hide once this runs).
 */
export function AutoApplyForm({
  action,
  label,
  className,
  children,
}: {
  action: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const router = useRouter();
  const searchParams = useSearchParams();
  const form = useRef<HTMLFormElement>(null);
  const typing = useRef<{ timer: ReturnType<typeof setTimeout> | null; pushed: boolean }>({ timer: null, pushed: false });
  const [pending, startTransition] = useTransition();
  const [enhanced, setEnhanced] = useState(false);
  /** Set by back and forward: then the address wins over every field, the one with focus too. */
  const fromHistory = useRef(false);

  useEffect(() => {
    setEnhanced(true);
    const onPopState = () => {
      fromHistory.current = true;
      clearTimeout(typing.current.timer ?? undefined);
      typing.current = { timer: null, pushed: false };
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  useEffect(() => {
    // The address changed: show its values, except in the field the user is typing in (unless
    // the change came from back or forward, where the address is what the user asked for).
    const element = form.current;
    const overwriteFocused = fromHistory.current;
    fromHistory.current = false;
    if (!element) return;
    for (const field of Array.from(element.elements)) {
      if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement) || !field.name || field.type === 'hidden') continue;
      if (field === document.activeElement && typed(field) && !overwriteFocused) continue;
      const value = searchParams.get(field.name) ?? '';
      if (field.value !== value) field.value = value;
    }
  }, [searchParams]);

  useEffect(() => () => clearTimeout(typing.current.timer ?? undefined), []);

  function apply(mode: 'push' | 'replace') {
    const element = form.current;
    if (!element) return;
    const address = cleanAddress(element);
    if (address === `${window.location.pathname}${window.location.search}`) return;
    startTransition(() => (mode === 'push' ? router.push(address, { scroll: false }) : router.replace(address, { scroll: false })));
  }

  function applyNow() {
    clearTimeout(typing.current.timer ?? undefined);
    typing.current = { timer: null, pushed: false };
    apply('push');
  }

  function onChange(event: ChangeEvent<HTMLFormElement>) {
    if (event.target instanceof HTMLSelectElement || (event.target instanceof HTMLInputElement && event.target.type === 'checkbox'))
      applyNow();
  }

  function onInput(event: FormEvent<HTMLFormElement>) {
    if (!typed(event.target)) return;
    clearTimeout(typing.current.timer ?? undefined);
    typing.current.timer = setTimeout(() => {
      // One history entry per burst of typing: the first pause adds it, later pauses replace it.
      apply(typing.current.pushed ? 'replace' : 'push');
      typing.current = { timer: null, pushed: true };
    }, TYPING_PAUSE_MS);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    applyNow();
  }

  return (
    <form
      ref={form}
      method="get"
      action={action}
      role="search"
      aria-label={label}
      aria-busy={pending || undefined}
      data-enhanced={enhanced || undefined}
      data-pending={pending || undefined}
      onChange={onChange}
      onInput={onInput}
      onSubmit={onSubmit}
      onBlur={(event) => {
        if (typed(event.target)) typing.current.pushed = false;
      }}
      className={`group ${className ?? ''}`}
    >
      {children}
      <span role="status" className="sr-only">
        {pending ? 'Updating the list…' : ''}
      </span>
    </form>
  );
}
