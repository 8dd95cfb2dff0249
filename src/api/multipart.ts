import { PassThrough, Readable } from 'node:stream';
import busboy from 'busboy';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import type { IncomingFile } from '@/engine/files/stage';

/** A multipart body's parts: text fields by name (repeated names collected), files as they stream. */
export interface MultipartHandlers {
  /** Called for each file part, in order; the part's bytes must be consumed (or the call throw). */
  onFile(name: string, file: IncomingFile): Promise<void>;
}

export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\s*;/i.test(request.headers.get('content-type') ?? '');
}

/**
 * Reads a multipart/form-data body as a stream (busboy over the web body): files are handed on
 * one at a time as their bytes arrive, never buffered whole. `maxFiles` more file parts is a
 * refusal naming `field`. Resolves with the text fields once the body ends; the first refusal of
 * a handler rejects (the rest of the body is drained, not kept).
 */
export async function readMultipart(
  request: Request,
  options: { readonly maxFiles: number; readonly maxFieldBytes: number; readonly field: string },
  handlers: MultipartHandlers,
): Promise<Record<string, string[]>> {
  if (!request.body) throw new NinefoldError('VALIDATION_FAILED', 'The body is empty; send the files as multipart/form-data.');
  const headers = Object.fromEntries(request.headers.entries());
  const parser = busboy({ headers, limits: { files: options.maxFiles, fieldSize: options.maxFieldBytes, fields: 200 } });
  const fields: Record<string, string[]> = {};
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  const fail = (error: unknown) => {
    failure ??= error;
  };
  return new Promise((resolve, reject) => {
    parser.on('field', (name, value) => (fields[name] ??= []).push(value));
    parser.on('file', (name, stream, info) => {
      chain = chain.then(async () => {
        if (failure) {
          stream.resume();
          return;
        }
        // Handed on through a pass-through: a handler that stops early destroys only that, and
        // busboy's own stream is drained, so the rest of the body is still read to its end.
        const pass = new PassThrough();
        stream.pipe(pass);
        try {
          await handlers.onFile(name, { name: info.filename ?? 'file', source: pass });
        } catch (error) {
          fail(error);
          stream.unpipe(pass);
          stream.resume();
        }
      });
    });
    parser.on('filesLimit', () =>
      fail(
        new NinefoldError('VALIDATION_FAILED', `At most ${options.maxFiles} files at once.`, {
          fieldErrors: [{ field: options.field, code: 'too_big', message: `At most ${options.maxFiles} files at once.` }],
        }),
      ),
    );
    parser.on('error', (error) => {
      fail(new NinefoldError('VALIDATION_FAILED', `The multipart body could not be read: ${(error as Error).message}`));
      chain.then(() => reject(failure), reject);
    });
    parser.on('close', () => {
      chain.then(() => (failure ? reject(failure) : resolve(fields)), reject);
    });
    Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>).pipe(parser);
  });
}
