import { NinefoldError } from '@/engine/errors/ninefold-error';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import type { FieldModel } from '@/engine/spec/model';
import { stageParts } from './files';

/** A multipart write as ops takes it: the input, and the files this request staged for it. */
export interface MultipartInput {
  readonly input: Record<string, unknown>;
  /** To discard when the write is refused: a refused write keeps none of the files it brought. */
  readonly staged: readonly number[];
}

/**
 * A multipart/form-data write (a record's POST or PATCH, a call with a file input): text parts
 * are fields as a form posts them (ops reads strings by type; a set's parts are its ids), file
 * parts are staged as the file field they are named after allows (its size and types, checked
 * while streaming), and their ids join the ids the field's text parts keep. A file part named
 * after anything but a file field is refused, and everything staged is deleted.
 */
export async function readMultipartInput(
  engine: Engine,
  actor: Actor,
  request: Request,
  fields: readonly FieldModel[],
): Promise<MultipartInput> {
  const fileFields = fields.filter((f) => f.files);
  const { files, fields: parts } = await stageParts(engine, actor, request, (part) => {
    const field = fileFields.find((f) => f.name === part);
    if (!field?.files) {
      const message = `"${part}" is not a file field: name each file part after one (${fileFields.map((f) => f.name).join(', ') || 'none here'}).`;
      throw new NinefoldError('VALIDATION_FAILED', message, { fieldErrors: [{ field: part, code: 'unknown_field', message }] });
    }
    return { maxBytes: field.files.maxBytes, accept: field.files.accept, field: field.name };
  });
  const input: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(parts)) {
    const field = fields.find((f) => f.name === name);
    // A set (references, users, files) is its ids; anything else the last value, as a form posts it.
    input[name] = field && (field.joinTable !== undefined || field.files) ? values.filter((v) => v !== '') : values.at(-1);
  }
  for (const field of fileFields) {
    const brought = files.filter((f) => f.part === field.name).map((f) => f.meta.id);
    if (brought.length > 0) input[field.name] = [...((input[field.name] as string[] | undefined) ?? []), ...brought];
  }
  return { input, staged: files.map((f) => f.meta.id) };
}

/** Runs a write with the files it brought: when the write is refused, they are deleted before the refusal is told. */
export async function withStagedFiles<T>(engine: Engine, actor: Actor, staged: readonly number[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await engine.files.discard(actor, staged);
    throw error;
  }
}
