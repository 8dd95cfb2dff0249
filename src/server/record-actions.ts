import { isVisitor } from '@/engine/access/visitor';
import type { Engine } from '@/engine/engine';
import { asNinefoldError, NinefoldError, notFound } from '@/engine/errors/ninefold-error';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { humanize, inSentence } from '@/engine/spec/naming';
import { type MessageFormState, type RecordFormState, SEEN_INPUT, VERSION_INPUT } from '@/ui/forms/state';
import { nonNegativeInteger, readFormInput } from './forms';
import { changedInput, changesSince, mergeStale, readSeen, seenValues } from './seen-values';
import { entityNamed } from './entity-named';
import { fieldsWithNewFiles, writeWithFormFiles } from './form-files';

/*
 * The form door, without Next.js: the server actions (src/server/actions/records.ts) resolve the
 * actor and the engine, call these, then redirect or hand the form back. Each calls one ops
 * function; ops alone decides what is allowed. What a form posts is passed on for every declared
 * field and the state, not only those the form shows, so that a forged field is refused
 * (FORBIDDEN_FIELD) exactly as through the API, never silently dropped.
 *
 * An unknown entity or a malformed id throws NOT_FOUND (the action answers with the 404 page);
 * any other refusal comes back as the form's state.
 */

/** Where to go after a successful submission. */
export interface Redirect {
  readonly redirectTo: string;
}

export function isRedirect(result: object): result is Redirect {
  return 'redirectTo' in result;
}

function checkedId(entity: EntityModel, id: number): number {
  if (!Number.isSafeInteger(id) || id < 1) throw notFound(inSentence(entity.label));
  return id;
}

/** What a form posted for the entity's fields and its state (which ops refuse to be written). */
function postedInput(
  entity: EntityModel,
  formData: FormData,
  zone: string,
): { input: Record<string, string>; values: Record<string, string> } {
  const { input, values } = readFormInput(formData, entity.fields, zone);
  const state = entity.workflow?.field;
  const posted = state === undefined ? null : formData.get(state);
  if (state !== undefined && typeof posted === 'string') input[state] = posted;
  return { input, values };
}

/** The form again, with what was typed and why it was refused. Errors that are not the user's are thrown on. */
export function refusedForm(
  error: unknown,
  state: RecordFormState,
  values: Record<string, string>,
  entity: EntityModel,
  shown: ReadonlySet<string>,
  carried: Pick<RecordFormState, 'version' | 'seen'> = {},
): RecordFormState {
  const known = asNinefoldError(error);
  if (!known) throw error;
  const fieldErrors: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const fieldError of known.fieldErrors) {
    if (shown.has(fieldError.field)) {
      fieldErrors[fieldError.field] ??= fieldError.message;
    } else {
      const label = entity.fieldsByName[fieldError.field]?.label ?? (fieldError.field ? humanize(fieldError.field) : '');
      elsewhere.push(label ? `${label}: ${fieldError.message}` : fieldError.message);
    }
  }
  const message = [known.message, ...elsewhere].join(' ');
  return { values: { ...state.values, ...values }, fieldErrors, message, code: known.code, attempt: state.attempt + 1, ...carried };
}

/**
 * An edit refused as STALE_VERSION, handed back with the typed values, what changed since the
 * version the user saw (read again for the same actor, so only fields the actor may read), and
 * the current version: the user has now seen the changes, so submitting again saves on top of
 * them. A field the user had left as shown now holds its current value (see mergeStale). Null
 * when the record cannot be read any more (deleted, or out of the actor's scope).
 */
async function staleForm(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  id: number,
  state: RecordFormState,
  values: Record<string, string>,
  formData: FormData,
  zone: string,
): Promise<RecordFormState | null> {
  let current;
  try {
    current = await engine.ops.get(actor, entity.name, id);
  } catch (error) {
    if (asNinefoldError(error)) return null;
    throw error;
  }
  const seen = readSeen(formData.get(SEEN_INPUT));
  const now = seenValues(entity, current.record, current.references, zone, engine.model.locale);
  // Fields the user left alone take the other person's change; what the user typed stays.
  const merged = seen ? mergeStale(seen, now, values) : { values, conflicts: new Set<string>() };
  const changes = seen
    ? changesSince(entity, seen, now).map((change) =>
        Object.hasOwn(values, change.field) ? { ...change, kept: merged.conflicts.has(change.field) } : change,
      )
    : null;
  return {
    values: { ...state.values, ...merged.values },
    fieldErrors: {},
    message: null,
    code: 'STALE_VERSION',
    attempt: state.attempt + 1,
    version: current.record.version,
    seen: JSON.stringify(now),
    stale: {
      title: `This ${inSentence(entity.label)} was changed by someone else.`,
      changes,
      reloadHref: `/${entity.plural}/${id}/edit`,
    },
  };
}

export async function submitCreate(
  engine: Engine,
  actor: Actor,
  entityName: string,
  state: RecordFormState,
  formData: FormData,
  /** The viewer's zone (src/server/viewer-zone.ts): posted date-times are wall times in it. */
  zone: string,
): Promise<RecordFormState | Redirect> {
  const entity = entityNamed(engine, entityName);
  const { input, values } = postedInput(entity, formData, zone);
  let id: number;
  try {
    id = (
      await writeWithFormFiles(engine, actor, entity.fields, formData, input, (withFiles) =>
        engine.ops.create(actor, entity.name, withFiles),
      )
    ).id;
  } catch (error) {
    return refusedForm(error, state, values, entity, new Set(engine.ops.access(actor, entity.name).writable.create));
  }
  return { redirectTo: (await mayRead(engine, actor, entity, id)) ? `/${entity.plural}/${id}` : `/${entity.plural}/new?${SENT_PARAM}=1` };
}

/** The address parameter of the new-record page that says "sent" to whoever may not read what they sent. */
export const SENT_PARAM = 'sent';

/**
 * Whether the author of a new record may read it (ops answers): a visitor's contact form is
 * theirs to send, not to read back. Asked only when a grant could refuse it.
 */
async function mayRead(engine: Engine, actor: Actor, entity: EntityModel, id: number): Promise<boolean> {
  if (!engine.ops.access(actor, entity.name).actions.read) return false;
  if (!isVisitor(actor)) return true;
  try {
    await engine.ops.get(actor, entity.name, id);
    return true;
  } catch (error) {
    const code = asNinefoldError(error)?.code;
    if (code === 'NOT_FOUND' || code === 'FORBIDDEN') return false;
    throw error;
  }
}

export async function submitUpdate(
  engine: Engine,
  actor: Actor,
  entityName: string,
  recordId: number,
  state: RecordFormState,
  formData: FormData,
  /** The viewer's zone (src/server/viewer-zone.ts): posted date-times are wall times in it. */
  zone: string,
): Promise<RecordFormState | Redirect> {
  const entity = entityNamed(engine, entityName);
  const id = checkedId(entity, recordId);
  const { input, values } = postedInput(entity, formData, zone);
  const version = nonNegativeInteger(formData.get(VERSION_INPUT));
  const shown = readSeen(formData.get(SEEN_INPUT));
  // Only what the user changed is written (seen-values.ts); a form that carries no SEEN_INPUT writes all it posts.
  const changed = shown ? changedInput(input, values, shown, fieldsWithNewFiles(entity.fields, formData)) : input;
  try {
    if (version === null) throw new NinefoldError('PRECONDITION_REQUIRED');
    await writeWithFormFiles(engine, actor, entity.fields, formData, changed, (withFiles) =>
      engine.ops.update(actor, entity.name, id, withFiles, version),
    );
    return { redirectTo: `/${entity.plural}/${id}` };
  } catch (error) {
    if (asNinefoldError(error)?.code === 'STALE_VERSION') {
      const stale = await staleForm(engine, actor, entity, id, state, values, formData, zone);
      if (stale) return stale;
    }
    // After a stale refusal the form holds the current version and what it showed: keep them.
    const seen = formData.get(SEEN_INPUT);
    const carried = { ...(version === null ? {} : { version }), ...(typeof seen === 'string' ? { seen } : {}) };
    return refusedForm(error, state, values, entity, new Set(engine.ops.access(actor, entity.name).writable.update), carried);
  }
}

export async function submitDelete(
  engine: Engine,
  actor: Actor,
  entityName: string,
  recordId: number,
  state: MessageFormState,
  formData: FormData,
): Promise<MessageFormState | Redirect> {
  const entity = entityNamed(engine, entityName);
  const id = checkedId(entity, recordId);
  const version = nonNegativeInteger(formData.get(VERSION_INPUT));
  try {
    if (version === null) throw new NinefoldError('PRECONDITION_REQUIRED');
    await engine.ops.delete(actor, entity.name, id, version);
    return { redirectTo: `/${entity.plural}` };
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known) throw error;
    return { message: known.message, code: known.code, values: {}, attempt: state.attempt + 1 };
  }
}
