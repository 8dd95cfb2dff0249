'use client';

import { useActionState, useId } from 'react';
import { cn } from '../cn';
import { type AccountAction, initialAccountFormState } from './account-state';
import { describedBy, inputClass } from './field-input';
import { SubmitButton } from './submit-button';
import { USER_FIELD_PREFIX, type UserFieldInput } from './user-fields-state';

/**
 * The spec's user fields of one account (`users.fields`), edited by an administrator: a real
 * form posting to a server action, so it works without JavaScript; each refusal is shown next
 * to its input, with what was chosen kept.
 */
export function UserFieldsForm({
  action,
  userId,
  fields,
  current,
  label,
}: {
  action: AccountAction;
  userId: number;
  fields: readonly UserFieldInput[];
  /** The stored values as the inputs show them, by field name. */
  current: Readonly<Record<string, string>>;
  /** Names the form for assistive technology ("Fields of ana@example.com"). */
  label: string;
}) {
  const [state, formAction] = useActionState(action, initialAccountFormState);
  const formId = useId();
  return (
    <form action={formAction} aria-label={label} className="space-y-2">
      <input type="hidden" name="userId" value={userId} />
      <div className="grid gap-2 sm:min-w-52">
        {fields.map((field) => {
          const name = `${USER_FIELD_PREFIX}${field.name}`;
          const id = `${formId}-${field.name}`;
          const error = state.fieldErrors[name];
          // After a refusal the inputs remount (key) with what was sent, not the stored value.
          const value = state.ok === false ? (state.values[name] ?? '') : (current[field.name] ?? '');
          const common = {
            id,
            name,
            'aria-invalid': error ? true : undefined,
            'aria-describedby': describedBy(id, field.help, error),
          } as const;
          return (
            <div key={`${field.name}-${state.attempt}`} className="min-w-0">
              <label htmlFor={id} className="mb-0.5 block text-xs font-medium text-zinc-600">
                {field.label}
              </label>
              {field.kind === 'select' ? (
                <select {...common} defaultValue={value} className={cn(inputClass, 'pr-8')}>
                  {/* Clearing is always possible for an optional field; a required one starts at its default. */}
                  {!field.required || value === '' ? <option value="">—</option> : null}
                  {(field.choices ?? []).map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...common}
                  type={field.kind === 'integer' ? 'number' : 'text'}
                  inputMode={field.kind === 'integer' ? 'numeric' : undefined}
                  step={field.kind === 'integer' ? 1 : undefined}
                  min={field.min}
                  max={field.max}
                  maxLength={field.maxLength}
                  defaultValue={value}
                  className={inputClass}
                />
              )}
              {/* Read out with the input; shown once above the table (the page), not in every row. */}
              {field.help ? (
                <p id={`${id}-help`} className="sr-only">
                  {field.help}
                </p>
              ) : null}
              {error ? (
                <p id={`${id}-error`} className="mt-0.5 text-xs text-red-600">
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      <SubmitButton variant="secondary" pendingLabel="Saving…">
        Save fields
      </SubmitButton>
      {state.message ? (
        <p className={cn('text-xs', state.ok ? 'text-accent-700' : 'text-red-600')} role={state.ok ? 'status' : 'alert'}>
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
