'use client';

import { LIST_TOOLS } from './list-tools';
import { useActionState, useEffect, useId, useRef, type ReactNode } from 'react';
import { buttonClass } from '../button';
import { cn } from '../cn';
import { type AccountAction, type AccountFormState, initialAccountFormState, type RoleOption } from '../forms/account-state';
import { describedBy, inputClass } from '../forms/field-input';
import { SubmitButton } from '../forms/submit-button';

/**
 * The forms of saved views: save the current list, rename, share, delete. Each is a real form
 * posting to a server action, so it works without JavaScript; the outcome is shown beside it.
 */

function Outcome({ state, id }: { state: AccountFormState; id?: string }) {
  if (!state.message) return null;
  return (
    <p id={id} role={state.ok ? 'status' : 'alert'} className={cn('text-sm', state.ok ? 'text-accent-700' : 'text-red-700')}>
      {state.message}
    </p>
  );
}

/** A name input with its label, tied to its error. */
function NameInput({ state, label, defaultValue }: { state: AccountFormState; label: string; defaultValue?: string }) {
  const id = `${useId()}-name`;
  const error = state.fieldErrors.name;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-zinc-600">
        {label}
      </label>
      <input
        key={state.attempt}
        id={id}
        name="name"
        required
        maxLength={80}
        autoComplete="off"
        defaultValue={state.values.name ?? defaultValue ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, undefined, error)}
        className={inputClass}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * "Save view": a disclosure holding the form that saves the current list (its query string)
 * under a name. It stays open on a refusal, so that the message shows without JavaScript too.
 */
export function SaveViewForm({
  action,
  entity,
  query,
  children,
}: {
  action: AccountAction;
  entity: string;
  query: string;
  children?: ReactNode;
}) {
  const [state, formAction] = useActionState(action, initialAccountFormState);
  const disclosure = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    // A refused name: back to the field, which now says why.
    if (state.ok === false) disclosure.current?.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
  }, [state]);
  return (
    <details
      ref={disclosure}
      name={LIST_TOOLS}
      // Not positioned: its panel opens from the edge of the row that holds it (ListViewsBar).
      className="group"
      open={state.ok === false || undefined}
      // Opening it is asking to type the name.
      onToggle={(event) => {
        if (event.currentTarget.open) event.currentTarget.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
      }}
    >
      <summary className={cn(buttonClass('secondary'), 'cursor-pointer list-none [&::-webkit-details-marker]:hidden')}>
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 text-zinc-500">
          <path d="M4 2h8v12l-4-3-4 3z" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" />
        </svg>
        Save view
      </summary>
      <div className="absolute right-0 z-20 mt-2 w-80 max-w-[calc(100vw-2rem)] space-y-4 rounded-lg border border-zinc-200 bg-white p-3 shadow-lg">
        <form action={formAction} className="space-y-3" aria-label="Save this list as a view">
          <input type="hidden" name="entity" value={entity} />
          <input type="hidden" name="query" value={query} />
          <NameInput state={state} label="Name of the view" />
          {state.ok || state.fieldErrors.name ? null : <Outcome state={state} />}
          <SubmitButton pendingLabel="Saving…">Save view</SubmitButton>
        </form>
        {children}
      </div>
    </details>
  );
}

/** Puts the current list into a view the user owns (the view's name stays). */
export function UpdateViewForm({ action, id, query, name }: { action: AccountAction; id: number; query: string; name: string }) {
  const [state, formAction] = useActionState(action, initialAccountFormState);
  return (
    <form action={formAction} className="inline-flex flex-wrap items-center gap-2" aria-label={`Update the view ${name}`}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="query" value={query} />
      <SubmitButton variant="secondary" pendingLabel="Saving…">{`Update "${name}"`}</SubmitButton>
      <Outcome state={state} />
    </form>
  );
}

export function RenameViewForm({ action, id, name }: { action: AccountAction; id: number; name: string }) {
  const [state, formAction] = useActionState(action, initialAccountFormState);
  return (
    <form action={formAction} className="space-y-2" aria-label={`Rename the view ${name}`}>
      <input type="hidden" name="id" value={id} />
      <NameInput state={state} label="New name" defaultValue={name} />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton variant="secondary" pendingLabel="Renaming…">
          Rename
        </SubmitButton>
        {state.fieldErrors.name ? null : <Outcome state={state} />}
      </div>
    </form>
  );
}

/** Administrators: the roles whose members see the view too. */
export function ShareViewForm({
  action,
  id,
  name,
  roles,
  shared,
}: {
  action: AccountAction;
  id: number;
  name: string;
  roles: readonly RoleOption[];
  shared: readonly string[];
}) {
  const [state, formAction] = useActionState(action, initialAccountFormState);
  const checked = state.values.roles !== undefined ? state.values.roles.split(',') : shared;
  return (
    <form action={formAction} className="space-y-2" aria-label={`Share the view ${name}`}>
      <input type="hidden" name="id" value={id} />
      <fieldset>
        <legend className="mb-1 text-xs font-medium text-zinc-600">Shared with the roles</legend>
        <div key={state.attempt} className="flex flex-wrap gap-x-4 gap-y-1.5">
          {roles.map((role) => (
            <label key={role.name} className="flex items-center gap-1.5 text-sm text-zinc-800">
              <input
                type="checkbox"
                name="roles"
                value={role.name}
                defaultChecked={checked.includes(role.name)}
                className="size-4 rounded border-zinc-300 accent-accent-600"
              />
              {role.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton variant="secondary" pendingLabel="Saving…">
          Save sharing
        </SubmitButton>
        <Outcome state={state} />
      </div>
    </form>
  );
}

/**
 * Deleting asks first: a disclosure whose only content is the confirmation, so that it asks with
 * and without JavaScript, and one click never deletes.
 */
export function DeleteViewForm({ action, id, name }: { action: AccountAction; id: number; name: string }) {
  const [state, formAction] = useActionState(action, initialAccountFormState);
  return (
    <details className="group">
      <summary className="inline-flex cursor-pointer list-none items-center rounded-md px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50 [&::-webkit-details-marker]:hidden">
        Delete<span className="sr-only"> the view {name}</span>
      </summary>
      <form
        action={formAction}
        className="mt-2 space-y-2 rounded-md border border-red-200 bg-red-50 p-3"
        aria-label={`Confirm deleting the view ${name}`}
      >
        <input type="hidden" name="id" value={id} />
        <p className="text-sm text-red-800">Delete the view “{name}”? This cannot be undone. The records it shows are not touched.</p>
        <SubmitButton variant="danger" pendingLabel="Deleting…">
          Delete view
        </SubmitButton>
        <Outcome state={state} />
      </form>
    </details>
  );
}
