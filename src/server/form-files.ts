import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import type { FieldModel } from '@/engine/spec/model';

/** The file fields a form's post adds files to (an empty file input posts an empty file without a name: nothing chosen). */
export function fieldsWithNewFiles(fields: readonly FieldModel[], formData: FormData): Set<string> {
  return new Set(fields.filter((field) => field.files && chosenFiles(formData, field.name).length > 0).map((field) => field.name));
}

const chosenFiles = (formData: FormData, name: string): File[] =>
  formData.getAll(name).filter((v): v is File => typeof v !== 'string' && v.size > 0);

/**
 * A form's write with the files it posted (a file input without JavaScript, or the files a
 * script's FormData holds): each file of a file field is staged as that field allows (size and
 * types checked as it streams into the store), its id joins the ids the form keeps (its checked
 * "keep" boxes), and the write runs. A refusal, of a file or of the write, deletes every file
 * this post staged before it is told: a refused form keeps nothing.
 */
export async function writeWithFormFiles<T>(
  engine: Engine,
  actor: Actor,
  fields: readonly FieldModel[],
  formData: FormData,
  input: Readonly<Record<string, string>>,
  write: (input: Record<string, string>) => Promise<T>,
): Promise<T> {
  const staged: number[] = [];
  try {
    const withFiles: Record<string, string> = { ...input };
    for (const field of fields) {
      if (!field.files) continue;
      const chosen = chosenFiles(formData, field.name);
      const ids: number[] = [];
      for (const file of chosen) {
        const source = Readable.fromWeb(file.stream() as unknown as ReadableStream<Uint8Array>);
        const meta = await engine.files.stage(
          actor,
          { name: file.name, source },
          { maxBytes: field.files.maxBytes, accept: field.files.accept, field: field.name },
        );
        staged.push(meta.id);
        ids.push(meta.id);
      }
      if (ids.length > 0) withFiles[field.name] = [input[field.name] ?? '', ...ids].filter((v) => v !== '').join(',');
    }
    return await write(withFiles);
  } catch (error) {
    await engine.files.discard(actor, staged);
    throw error;
  }
}
