'use client';

import { useActionState, useState, useSyncExternalStore } from 'react';
import { Alert } from '../alert';
import type { ConfirmQuestion } from '../confirm/confirm-input';
import { ConfirmPanel } from '../confirm/confirm-panel';
import { ConfirmSubmit } from '../confirm/confirm-submit';
import { ChoicePicker } from '../forms/choice-picker';
import type { FormFieldDescriptor } from '../forms/state';
import { PhoneFold } from '../phone-fold';
import {
  BULK_CHOICE_INPUT,
  BULK_CLEAR_VALUE,
  BULK_COMMENT_INPUT,
  BULK_ROW_INPUT,
  BULK_SET_PREFIX,
  bulkChoiceValue,
  initialBulkActionState,
  parseBulkChoice,
  type BulkActionState,
} from './bulk-action-state';

export interface BulkTransitionChoice {
  readonly name: string;
  readonly label: string;
  readonly comment?: 'required' | 'optional';
  /** What to ask before taking it (it leads to a final state: src/ui/record/transition-question.ts). */
  readonly question?: ConfirmQuestion | null;
}

const never = () => () => {};

const controlClass =
  'block h-9 w-full rounded-md border-0 bg-white py-1.5 pl-2.5 text-sm text-zinc-900 shadow-xs ring-1 ring-inset ring-zinc-300 focus:ring-2 focus:ring-accent-600 focus-visible:outline-none';

/**
 * The bulk panel of a list: one action on the selected rows (a workflow transition, "Set
 * <field>", "Delete") and its report. A plain <form> posting to a server action, so it works
 * without JavaScript; the rows' checkboxes sit in the table (a Server Component) and join this
 * form through their `form` attribute. The panel shows once a row is selected (`.bulk-panel` in
 * globals.css, with or without JavaScript); the report stays. When the list has no rows it shows
 * only the report, if any (the rows may have left a filtered list).
 *
 * "Set <field>" has one input per field offered; with JavaScript only the chosen one shows.
 * What cannot be undone (a transition into a final state, a delete) asks first: in a dialog with
 * JavaScript; without it the server answers with the question, in a form of its own that posts
 * the same choice and rows again (outside the phone's fold, so that it is seen where the answer lands).
 */
export function BulkActionForm({
  id,
  action,
  choices,
  fields = [],
  setFields = [],
  deleteQuestion = null,
  plural,
  controls,
  cancelHref,
}: {
  /** The form's id, named by the rows' checkboxes. */
  id: string;
  action: (state: BulkActionState, formData: FormData) => Promise<BulkActionState>;
  choices: readonly BulkTransitionChoice[];
  /** Inputs for fields that some of the transitions require (the assignee to start), optional here: rows that have one already can move without. */
  fields?: readonly FormFieldDescriptor[];
  /** The fields offered as "Set <field>": one value written on every selected row. */
  setFields?: readonly FormFieldDescriptor[];
  /** What to ask before deleting the selected rows; null when the viewer may not delete them. */
  deleteQuestion?: ConfirmQuestion | null;
  /** "tickets" */
  plural: string;
  /** False when the list shows no rows to select. */
  controls: boolean;
  /** The list as shown: Cancel on the server's question goes back to it. */
  cancelHref: string;
}) {
  const [state, formAction] = useActionState(action, initialBulkActionState);
  const hydrated = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = picked ?? state.values.choice ?? '';
  const withComment = choices.some((c) => c.comment);
  const { outcome, values } = state;
  const questionFor = (value: string): ConfirmQuestion | null => {
    const choice = parseBulkChoice(value);
    if (choice?.kind === 'delete') return deleteQuestion;
    return choice?.kind === 'transition' ? (choices.find((c) => c.name === choice.name)?.question ?? null) : null;
  };
  const asked = state.confirm ? questionFor(values.choice ?? '') : null;
  const questionOf = (form: HTMLFormElement): ConfirmQuestion | null => {
    const select = form.elements.namedItem(BULK_CHOICE_INPUT);
    return select instanceof HTMLSelectElement ? questionFor(select.value) : null;
  };
  return (
    <div className="mb-4 space-y-3">
      {controls ? (
        <PhoneFold label={`With the selected ${plural}`} className="bulk-panel">
          <form
            id={id}
            action={formAction}
            aria-label={`Selected ${plural}`}
            className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-3 shadow-xs"
          >
            <div key={`t${state.attempt}`} className="min-w-48">
              <label htmlFor={`${id}-choice`} className="mb-1 block text-xs font-medium text-zinc-600">
                With the selected {plural}
              </label>
              <select
                id={`${id}-choice`}
                name={BULK_CHOICE_INPUT}
                required
                defaultValue={state.values.choice ?? ''}
                onChange={(event) => setPicked(event.currentTarget.value)}
                className={`${controlClass} pr-8`}
              >
                <option value="" disabled>
                  Choose an action…
                </option>
                {choices.map((choice) => (
                  <option key={choice.name} value={choice.name}>
                    {choice.label}
                  </option>
                ))}
                {setFields.map((field) => (
                  <option key={field.name} value={bulkChoiceValue({ kind: 'set', field: field.name })}>
                    Set {field.label}
                  </option>
                ))}
                {deleteQuestion ? <option value={bulkChoiceValue({ kind: 'delete' })}>Delete</option> : null}
              </select>
            </div>
            {fields.map((field) => (
              <ToolbarField
                key={`${field.name}-${state.attempt}`}
                formId={id}
                field={field}
                value={state.values.fields?.[field.name] ?? ''}
              />
            ))}
            {setFields.map((field) => {
              const value = bulkChoiceValue({ kind: 'set', field: field.name });
              return (
                <SetField
                  key={`${field.name}-${state.attempt}`}
                  formId={id}
                  field={field}
                  value={state.values.set?.[`${BULK_SET_PREFIX}${field.name}`] ?? ''}
                  // Without JavaScript every such input shows, each named by its label; with it, only the chosen one.
                  hidden={hydrated && chosen !== value}
                />
              );
            })}
            {withComment ? (
              <div key={`c${state.attempt}`} className="min-w-48 flex-1">
                <label htmlFor={`${id}-comment`} className="mb-1 block text-xs font-medium text-zinc-600">
                  Comment
                  {choices.every((c) => c.comment === 'required') ? null : <span className="font-normal text-zinc-500"> (optional)</span>}
                </label>
                <input
                  id={`${id}-comment`}
                  type="text"
                  name={BULK_COMMENT_INPUT}
                  maxLength={10_000}
                  defaultValue={state.values.comment ?? ''}
                  className={`${controlClass} pr-2.5`}
                />
              </div>
            ) : null}
            <ConfirmSubmit question={questionOf} variant="secondary" pendingLabel="Applying…">
              Apply to selected
            </ConfirmSubmit>
            {fields.map((field) =>
              field.help ? (
                <p key={field.name} id={`${id}-${field.name}-help`} className="basis-full text-xs text-zinc-500">
                  {field.label}: {field.help}
                </p>
              ) : null,
            )}
          </form>
        </PhoneFold>
      ) : null}
      {asked ? (
        <form action={formAction} aria-label={`Confirm: selected ${plural}`}>
          <input type="hidden" name={BULK_CHOICE_INPUT} value={values.choice} />
          {values.comment ? <input type="hidden" name={BULK_COMMENT_INPUT} value={values.comment} /> : null}
          {Object.entries(values.fields ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {Object.entries(values.set ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {(values.rows ?? []).map((row) => (
            <input key={row} type="hidden" name={BULK_ROW_INPUT} value={row} />
          ))}
          <ConfirmPanel question={asked} cancelHref={cancelHref} />
        </form>
      ) : null}
      {state.message ? <Alert title="Nothing was changed.">{state.message}</Alert> : null}
      {outcome?.summary ? <Alert tone="info" title={outcome.summary} /> : null}
      {outcome && outcome.refused.length > 0 ? (
        <Alert title={outcome.refusedTitle ?? undefined}>
          <ul className="mt-1 space-y-1" aria-label="Refused rows">
            {outcome.refused.map((row) => (
              <li key={row.id} data-code={row.code}>
                {row.href ? (
                  <a href={row.href} className="font-medium underline underline-offset-2">
                    {row.title}
                  </a>
                ) : (
                  <span className="font-medium">{row.title}</span>
                )}{' '}
                — {row.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </div>
  );
}

const INPUT_TYPES: Partial<Record<FormFieldDescriptor['kind'], string>> = {
  integer: 'number',
  decimal: 'number',
  id: 'number',
  date: 'date',
  datetime: 'datetime-local',
  email: 'email',
  url: 'url',
};

/**
 * A field a transition requires, as the toolbar asks for it: optional, since rows that have a
 * value already keep it when this is left empty ("Keep theirs").
 */
function ToolbarField({ formId, field, value }: { formId: string; field: FormFieldDescriptor; value: string }) {
  const inputId = `${formId}-${field.name}`;
  const help = field.help ? `${inputId}-help` : undefined;
  const plain = <PlainToolbarInput inputId={inputId} help={help} field={field} value={value} />;
  return (
    <div className="min-w-48">
      <label htmlFor={inputId} className="mb-1 block text-xs font-medium text-zinc-600">
        {field.label}
      </label>
      {field.search ? (
        // A reference or user: the server finds the options as the user types; emptied, it keeps theirs.
        <ChoicePicker id={inputId} name={field.name} label={field.label} value={value} search={field.search} describedBy={help}>
          {plain}
        </ChoicePicker>
      ) : (
        plain
      )}
      {field.kind === 'datetime' && field.zone ? <span className="mt-1 block text-xs text-zinc-500">Times in {field.zone}</span> : null}
    </div>
  );
}

/** The toolbar's input as the server renders it: a select of a few values (or "Keep theirs"), else a typed value. */
function PlainToolbarInput({ inputId, help, field, value }: { inputId: string; help?: string; field: FormFieldDescriptor; value: string }) {
  return field.kind === 'select' ? (
    <select id={inputId} name={field.name} defaultValue={value} aria-describedby={help} className={`${controlClass} pr-8`}>
      <option value="">Keep theirs</option>
      {(field.options ?? []).map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  ) : (
    <input
      id={inputId}
      name={field.name}
      type={INPUT_TYPES[field.kind] ?? 'text'}
      step={field.step}
      placeholder={field.kind === 'id' ? 'ID' : undefined}
      defaultValue={value}
      aria-describedby={help}
      className={`${controlClass} pr-2.5`}
    />
  );
}

/**
 * The value of "Set <field>": posted as `to.<field>`, apart from the transitions' inputs. Nothing
 * is chosen at first (the server refuses an empty value); an optional field's select also offers
 * "None", which empties it on every row. Yes or no is a select too: an unticked box would say "no".
 */
function SetField({ formId, field, value, hidden }: { formId: string; field: FormFieldDescriptor; value: string; hidden: boolean }) {
  const inputId = `${formId}-to-${field.name}`;
  const name = `${BULK_SET_PREFIX}${field.name}`;
  const options =
    field.kind === 'checkbox'
      ? [
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]
      : field.options;
  return (
    <div className="min-w-48" hidden={hidden}>
      <label htmlFor={inputId} className="mb-1 block text-xs font-medium text-zinc-600">
        New {field.label}
      </label>
      {field.search && !options ? (
        // A reference or user: the server finds the options as the user types; without JavaScript, its id.
        <ChoicePicker id={inputId} name={name} label={`New ${field.label}`} value={value} search={field.search}>
          <input id={inputId} name={name} placeholder="ID" defaultValue={value} className={`${controlClass} pr-2.5`} />
        </ChoicePicker>
      ) : options ? (
        <select id={inputId} name={name} defaultValue={value} className={`${controlClass} pr-8`}>
          <option value="">Choose…</option>
          {field.required || field.kind === 'checkbox' ? null : <option value={BULK_CLEAR_VALUE}>None</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={inputId}
          name={name}
          type={INPUT_TYPES[field.kind] ?? 'text'}
          step={field.step}
          min={field.min}
          max={field.max}
          placeholder={field.kind === 'id' ? 'ID' : undefined}
          defaultValue={value}
          className={`${controlClass} pr-2.5`}
        />
      )}
      {field.kind === 'datetime' && field.zone ? <span className="mt-1 block text-xs text-zinc-500">Times in {field.zone}</span> : null}
    </div>
  );
}
