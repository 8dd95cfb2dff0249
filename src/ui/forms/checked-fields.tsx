'use client';

import { type ChangeEvent, type FocusEvent, useMemo, useState } from 'react';
import { FieldInput } from './field-input';
import type { FormFieldDescriptor, RecordFormState } from './state';
import { type FormChecks, fieldMessage, ruleTarget, ruleVerdicts, shownError } from './validation';

/** The last value a form holds for a name, as the server reads it (a checkbox's "true" wins over its hidden "false"). */
function formValue(form: HTMLFormElement, name: string): string {
  const values = new FormData(form).getAll(name).filter((v): v is string => typeof v === 'string');
  return values.at(-1) ?? '';
}

function formValues(form: HTMLFormElement, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, formValue(form, name)]));
}

/**
 * The inputs of a record form, checked in the browser as the user leaves each one, with the
 * server's own rules (see ./validation.ts). Mounted afresh for each answer of the server
 * (keyed by the state's attempt): its errors start as the server's.
 */
export function CheckedFields({
  fields,
  checks,
  state,
}: {
  fields: readonly FormFieldDescriptor[];
  checks?: FormChecks;
  state: RecordFormState;
}) {
  /** Field verdicts: a message, null once checked and fine; absent when not checked since the server answered. */
  const [fieldVerdicts, setFieldVerdicts] = useState<Readonly<Record<string, string | null>>>({});
  const [rules, setRules] = useState<Readonly<Record<string, string | null>>>({});
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const models = useMemo(() => new Map((checks?.fields ?? []).map((f) => [f.name, f])), [checks]);
  const ruleMessages = useMemo(() => {
    const byField: Record<string, string[]> = {};
    for (const rule of Object.values(checks?.rules ?? {})) {
      const target = ruleTarget(rule);
      if (target !== undefined) (byField[target] ??= []).push(rule.message);
    }
    return byField;
  }, [checks]);

  const errorOf = (name: string) =>
    shownError({ server: state.fieldErrors[name], field: fieldVerdicts[name], rule: rules[name], ruleMessages: ruleMessages[name] ?? [] });

  const check = (input: EventTarget) => {
    const isInput = input instanceof HTMLInputElement || input instanceof HTMLSelectElement || input instanceof HTMLTextAreaElement;
    if (!checks || !isInput) return;
    const { form, name } = input;
    const field = models.get(name);
    if (!form || !field) return;
    const raw = formValue(form, name);
    const message = fieldMessage(field, raw);
    setFieldVerdicts((current) => {
      const next = { ...current };
      // Fine by the browser's checks but unchanged since the server refused it: the server knew
      // something the browser cannot (a unique value taken, a reference gone); keep its word.
      if (message === null && raw === (state.values[name] ?? '') && state.fieldErrors[name] !== undefined) delete next[name];
      else next[name] = message;
      return next;
    });
    const nowTouched = touched.has(name) ? touched : new Set([...touched, name]);
    if (nowTouched !== touched) setTouched(nowTouched);
    setRules(
      ruleVerdicts(
        checks,
        formValues(
          form,
          checks.fields.map((f) => f.name),
        ),
        nowTouched,
        new Date(),
      ),
    );
  };

  const onBlur = (event: FocusEvent<HTMLDivElement>) => check(event.target);
  // Once a field shows an error, typing re-checks it, so the message goes as soon as it is fixed.
  const onChange = (event: ChangeEvent<HTMLDivElement>) => {
    const name = (event.target as { name?: unknown }).name;
    if (typeof name === 'string' && errorOf(name) !== undefined) check(event.target);
  };

  const firstError = fields.find((field) => state.fieldErrors[field.name])?.name;
  return (
    <div className="space-y-5" onBlur={onBlur} onChange={onChange}>
      {fields.map((field) => (
        <FieldInput
          key={field.name}
          field={field}
          value={state.values[field.name] ?? ''}
          error={errorOf(field.name)}
          autoFocus={field.name === firstError}
        />
      ))}
    </div>
  );
}
