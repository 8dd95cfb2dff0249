import { FORM_FILES_CEILING_BYTES, FORM_POST_CEILING_BYTES } from '@/api/action-body.mjs';
import type { Engine } from '@/engine/engine';
import { resolveLimits } from '@/engine/limits';
import { MAX_REFERENCES } from '@/engine/spec/join-fields';
import type { AppModel, FieldModel } from '@/engine/spec/model';

/**
 * The largest body a form of this spec can post to a server action, which `npm start`'s server
 * (scripts/server.mjs) accepts before anything larger is refused, unread, with 413 (and before
 * Next.js parses any of it). Server actions carry forms only: the CSV import has its own route.
 * The largest form is a record's edit form, so the figure follows the spec's fields.
 */
export const FORM_POST_LIMIT = Symbol.for('ninefold.formPostLimit');
/** The same for a body that cannot carry files: only a multipart post brings a form's files. */
export const FORM_VALUES_LIMIT = Symbol.for('ninefold.formValuesLimit');

/** A character of text as a form posts it: UTF-8 takes at most 4 bytes (an escaped quote or line break in the state's JSON, at most 3). */
const BYTES_PER_CHARACTER = 4;
/** A value of any other kind (a number, date, enum value, id, yes/no), generously. */
const OTHER_VALUE_BYTES = 256;
/** One id in a references field's list, with its separator. */
const REFERENCE_ID_BYTES = 24;
/**
 * How many times one post of an edit form may carry a record's values: the fields as typed; what
 * the edit showed of the record (value and text, in a hidden input); the same in the form's state
 * that React's client sends back with it; and after a stale refusal, each changed field before and
 * after. Eight copies.
 */
const COPIES = 8;
/**
 * Everything besides a record's values: multipart framing and names, the state's other keys, and
 * the forms that are not a record's (sign-in, account, saved views, a bulk change of up to 500
 * selected rows with its comment of up to 10,000 characters).
 */
const FRAMING_BYTES = 256 * 1024;

/** The most one field's value can take in a form's post; a text without maxLength as much as the API takes in a body. */
function fieldBytes(field: FieldModel, unboundedText: number): number {
  const spec = field.spec;
  if (spec.type === 'text' || spec.type === 'markdown')
    return spec.maxLength === undefined ? unboundedText : spec.maxLength * BYTES_PER_CHARACTER;
  if (spec.type === 'references' || spec.type === 'users') return (field.maxItems ?? MAX_REFERENCES) * REFERENCE_ID_BYTES;
  // The ids of the files kept (their bytes are counted once, by fileBytes).
  if (field.files) return field.files.maxItems * REFERENCE_ID_BYTES;
  return OTHER_VALUE_BYTES;
}

/** What a record's file fields may bring in one post: each field's maxItems files of its maxBytes, sent once. */
function fileBytes(fields: readonly FieldModel[]): number {
  return fields.reduce((sum, field) => sum + (field.files ? field.files.maxItems * field.files.maxBytes : 0), 0);
}

/**
 * The figure for one model (exported for tests): the values at most FORM_POST_CEILING_BYTES, and
 * the files of the record with the most at most FORM_FILES_CEILING_BYTES (Next.js's own limit is both).
 */
export function formPostLimit(model: AppModel): number {
  const records = [...model.entities.map((entity) => entity.fields), model.users.fields];
  const files = Math.max(0, ...records.map(fileBytes));
  return formValuesLimit(model) + Math.min(FORM_FILES_CEILING_BYTES, files);
}

/** The values alone: what a post that can hold no file (any body but multipart/form-data) may be. */
export function formValuesLimit(model: AppModel): number {
  const unboundedText = resolveLimits(model).maxBodyBytes;
  const records = [...model.entities.map((entity) => entity.fields), model.users.fields];
  const largest = Math.max(0, ...records.map((fields) => fields.reduce((sum, field) => sum + fieldBytes(field, unboundedText), 0)));
  return Math.min(FORM_POST_CEILING_BYTES, FRAMING_BYTES + COPIES * largest);
}

/** Puts this engine's figure where scripts/server.mjs looks for it. */
export function registerFormPostLimit(engine: Pick<Engine, 'model'>): void {
  (globalThis as Record<symbol, unknown>)[FORM_POST_LIMIT] = formPostLimit(engine.model);
  (globalThis as Record<symbol, unknown>)[FORM_VALUES_LIMIT] = formValuesLimit(engine.model);
}
