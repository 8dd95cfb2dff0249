import type { ReactNode } from 'react';
import dynamic from 'next/dynamic';
import { cn } from '../cn';
import { MarkdownEditor } from '../markdown-editor/markdown-editor';
import { ChoicePicker } from './choice-picker';
import { ReferencesPicker } from './references-picker';
import type { FormFieldDescriptor } from './state';

// A chunk of its own, fetched only by the pages whose forms have a file field.
const FileUploadInput = dynamic(() => import('./file-upload-input').then((m) => m.FileUploadInput));

export const inputClass =
  'block w-full rounded-md border-0 bg-white px-2.5 py-1.5 text-sm text-zinc-900 shadow-xs ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-400 focus:ring-2 focus:ring-accent-600 focus-visible:outline-none aria-invalid:ring-red-500';

/** Label, help and error around one input; the ids tie them together for assistive technology. */
export function FieldFrame({
  id,
  label,
  required,
  help,
  error,
  suffix,
  children,
}: {
  id: string;
  label: string;
  required: boolean;
  help?: string;
  error?: string;
  suffix?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      {/* The marker sits outside the label, so the label (and the input's name) is just the label. */}
      <div className="mb-1 flex items-baseline gap-0.5">
        <label htmlFor={id} className="text-sm font-medium text-zinc-800">
          {label}
        </label>
        {required ? (
          <span className="text-sm text-red-600" aria-hidden="true">
            *
          </span>
        ) : null}
      </div>
      <div className="flex items-center gap-2">
        <div className={cn('min-w-0', suffix ? 'w-full max-w-60' : 'flex-1')}>{children}</div>
        {suffix}
      </div>
      {help ? (
        <p id={`${id}-help`} className="mt-1 text-xs text-zinc-500">
          {help}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function describedBy(id: string, help: string | undefined, error: string | undefined): string | undefined {
  const ids = [help ? `${id}-help` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/**
 * The input for one field, uncontrolled, showing `value`. Booleans post a hidden "false"
 * followed by the checkbox's "true": the last value wins, so unchecked is told apart from absent.
 * Date-times are shown and read in the viewer's zone, named beside the input (see src/server/forms.ts);
 * an amount of money is a plain number, its currency named beside the input.
 */
export function FieldInput({
  field,
  value,
  error,
  autoFocus,
  idPrefix = 'field',
}: {
  field: FormFieldDescriptor;
  value: string;
  error?: string;
  /** Set on the first field with an error, so the user lands where the fix is needed. */
  autoFocus?: boolean;
  /** The input's id is `<prefix>-<field>`: another prefix for a second form of the same field on a page. */
  idPrefix?: string;
}) {
  const id = `${idPrefix}-${field.name}`;
  const common = {
    id,
    name: field.name,
    autoFocus,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, field.help, error),
  } as const;
  const frame = (input: ReactNode, suffix?: ReactNode) => (
    <FieldFrame id={id} label={field.label} required={field.required} help={field.help} error={error} suffix={suffix}>
      {input}
    </FieldFrame>
  );
  // A reference or user field: a combobox searching the server once hydrated, this plain input before and without JavaScript.
  const picker = (plain: ReactNode) =>
    field.search ? (
      <ChoicePicker
        id={id}
        name={field.name}
        label={field.label}
        value={value}
        valueLabel={field.currentTitle ?? field.options?.find((o) => o.value === value)?.label}
        search={field.search}
        required={field.required}
        describedBy={common['aria-describedby']}
        invalid={Boolean(error)}
        autoFocus={autoFocus}
      >
        {plain}
      </ChoicePicker>
    ) : (
      plain
    );

  // A references or users field: a combobox of several searching the server once hydrated, this plain input before and without JavaScript.
  const severalPicker = (plain: ReactNode) =>
    field.search ? (
      <ReferencesPicker
        id={id}
        name={field.name}
        label={field.label}
        value={value}
        titles={field.options ?? []}
        search={field.search}
        required={field.required}
        maxItems={field.maxItems}
        describedBy={common['aria-describedby']}
        invalid={Boolean(error)}
        autoFocus={autoFocus}
      >
        {plain}
      </ReferencesPicker>
    ) : (
      plain
    );

  switch (field.kind) {
    case 'checkbox':
      return (
        <div>
          <input type="hidden" name={field.name} value="false" />
          <div className="flex items-center gap-2">
            <input
              {...common}
              type="checkbox"
              value="true"
              defaultChecked={value === 'true'}
              className="size-4 rounded border-zinc-300 text-accent-600 accent-accent-600"
            />
            <label htmlFor={id} className="text-sm font-medium text-zinc-800">
              {field.label}
            </label>
          </div>
          {field.help ? (
            <p id={`${id}-help`} className="mt-1 text-xs text-zinc-500">
              {field.help}
            </p>
          ) : null}
          {error ? (
            <p id={`${id}-error`} className="mt-1 text-sm text-red-600">
              {error}
            </p>
          ) : null}
        </div>
      );
    case 'textarea':
      // Markdown fields: Write and Preview tabs with JavaScript, the plain textarea without.
      return frame(
        <MarkdownEditor
          textarea={{
            ...common,
            rows: 8,
            required: field.required,
            minLength: field.minLength,
            maxLength: field.maxLength,
            defaultValue: value,
            className: cn(inputClass, 'font-mono text-[0.8125rem] leading-relaxed'),
          }}
        />,
      );
    case 'select':
      return frame(
        picker(
          <select {...common} required={field.required} defaultValue={value} className={cn(inputClass, 'pr-8')}>
            {!field.required || value === '' ? <option value="">{field.required ? 'Choose…' : '—'}</option> : null}
            {(field.options ?? []).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>,
        ),
      );
    case 'id':
      return frame(
        picker(
          // Too many to list: the id, the current value's title beside it (the combobox shows the title itself).
          <div className="flex items-center gap-2">
            <input
              {...common}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              required={field.required}
              defaultValue={value}
              placeholder="ID"
              className={cn(inputClass, 'max-w-40')}
            />
            {field.currentTitle ? <span className="truncate text-sm text-zinc-600">{field.currentTitle}</span> : null}
          </div>,
        ),
      );
    case 'multi':
      // Either way the form posts an empty value (the field was in the form, so choosing none empties it) and one per chosen record.
      return frame(
        severalPicker(
          <>
            <input type="hidden" name={field.name} value="" />
            <select
              {...common}
              multiple
              required={field.required}
              defaultValue={value.split(',').filter((v) => v !== '')}
              size={Math.min(Math.max(field.options?.length ?? 0, 2), 8)}
              className={cn(inputClass, 'py-1')}
            >
              {(field.options ?? []).map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </>,
        ),
      );
    case 'files':
      // Without JavaScript the chosen files go with the form; with it, each is uploaded as it is
      // chosen (progress, Cancel) and the form posts its id. A "keep" box per file it holds.
      return frame(
        <div className="space-y-2">
          {/* Stands for "the field was in the form", so that unchecking every file empties it. */}
          <input type="hidden" name={field.name} value="" />
          {(field.current ?? []).map((file) => (
            <label key={file.id} className="flex items-center gap-2 text-sm text-zinc-800">
              <input type="checkbox" name={field.name} value={String(file.id)} defaultChecked className="size-4 accent-accent-600" />
              Keep {file.name}
            </label>
          ))}
          <FileUploadInput
            {...common}
            multiple={(field.maxItems ?? 1) > 1}
            accept={field.accept?.join(',')}
            required={field.required && (field.current ?? []).length === 0}
            className={inputClass}
          />
        </div>,
      );
    case 'ids': {
      const typed = (
        <input
          {...common}
          type="text"
          inputMode="numeric"
          pattern="\s*\d+(\s*,\s*\d+)*\s*"
          title="Ids separated by commas"
          required={field.required}
          defaultValue={value}
          placeholder="IDs, e.g. 3, 7"
          className={inputClass}
        />
      );
      return frame(field.search ? severalPicker(typed) : typed);
    }
    case 'integer':
    case 'decimal':
      return frame(
        <input
          {...common}
          type="number"
          step={field.step ?? (field.kind === 'integer' ? '1' : 'any')}
          min={field.min}
          max={field.max}
          required={field.required}
          defaultValue={value}
          className={cn(inputClass, 'max-w-60')}
        />,
        field.currency ? <span className="text-xs font-medium text-zinc-500">{field.currency}</span> : null,
      );
    case 'date':
      return frame(<input {...common} type="date" required={field.required} defaultValue={value} className={cn(inputClass, 'max-w-60')} />);
    case 'datetime':
      return frame(
        <input
          {...common}
          type="datetime-local"
          step={field.step}
          required={field.required}
          defaultValue={value}
          className={cn(inputClass, 'max-w-60')}
        />,
        <span className="text-xs font-medium text-zinc-500">Times in {field.zone ?? 'UTC'}</span>,
      );
    case 'email':
    case 'url':
    case 'text':
      return frame(
        <input
          {...common}
          type={field.kind}
          required={field.required}
          minLength={field.minLength}
          maxLength={field.maxLength}
          pattern={field.pattern}
          title={field.pattern ? field.patternMessage : undefined}
          defaultValue={value}
          className={inputClass}
        />,
      );
  }
}
