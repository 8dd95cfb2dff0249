import { Readable } from 'node:stream';
import { visitorsMayReadFiles } from '@/engine/access/policy';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import type { Engine } from '@/engine/engine';
import type { FileMeta } from '@/engine/files/file-meta';
import { fileToWire } from './file-wire';
import type { ByteRange } from '@/engine/files/file-store';
import type { FilePart } from '@/engine/files/file-tables';
import { isInlineImage } from '@/engine/files/file-limits';
import type { Actor } from '@/engine/ground/actor';
import type { AppModel } from '@/engine/spec/model';
import type { StageLimits } from '@/engine/files/stage';
import { json } from './json';
import { problemResponse } from './problem';
import { isMultipart, readMultipart } from './multipart';
import { recordId } from './record-id';
import { actorOf, type ApiRequest, type Route } from './routes';

/** How many files one upload request may carry. */
export const MAX_FILES_PER_UPLOAD = 20;

/** A file part as staged: the part's name (a multipart write's file field), and the file. */
export interface StagedPart {
  readonly part: string;
  readonly meta: FileMeta;
}

/**
 * Receives the file parts of a multipart body as staged uploads of the actor, each within the
 * limits `limitsFor` gives its part's name (which throws for a part it does not take); a refusal
 * deletes every file this request staged, so nothing is left behind.
 */
export async function stageParts(
  engine: Engine,
  actor: Actor,
  request: Request,
  limitsFor: (part: string) => StageLimits = () => engine.files.uploadLimits(),
): Promise<{ files: StagedPart[]; fields: Record<string, string[]> }> {
  if (!isMultipart(request)) throw new NinefoldError('UNSUPPORTED_MEDIA_TYPE', 'Send the files as multipart/form-data.');
  const staged: StagedPart[] = [];
  try {
    const fields = await readMultipart(
      request,
      { maxFiles: MAX_FILES_PER_UPLOAD, maxFieldBytes: 1_000_000, field: 'file' },
      { onFile: async (part, file) => void staged.push({ part, meta: await engine.files.stage(actor, file, limitsFor(part)) }) },
    );
    return { files: staged, fields };
  } catch (error) {
    await engine.files.discard(
      actor,
      staged.map((f) => f.meta.id),
    );
    throw error;
  }
}

/** `bytes=0-99`, `bytes=100-`, `bytes=-50` over `size`; null for no (or an unusable) header; 'unsatisfiable' past the end. */
export function parseRange(header: string | null, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, from = '', to = ''] = match;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

/** `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf` (inline for raster images). */
function contentDisposition(meta: FileMeta, part: FilePart): string {
  const inline = part === 'thumbnail' || isInlineImage(meta.contentType);
  const ascii = meta.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(meta.name)}`;
}

async function download(call: ApiRequest, part: FilePart): Promise<Response> {
  const id = recordId(call.params.id);
  const file = await call.engine.files.open(actorOf(call), id, part);
  const tag = `"${file.meta.sha256}${part === 'thumbnail' ? '-t' : ''}"`;
  const headers: Record<string, string> = {
    'content-type': file.contentType,
    'content-disposition': contentDisposition(file.meta, part),
    'x-content-type-options': 'nosniff',
    // Private: a shared cache never keeps it; no-cache: the browser asks again (304 when unchanged).
    'cache-control': 'private, no-cache',
    'content-security-policy': "default-src 'none'; sandbox",
    etag: tag,
    'accept-ranges': 'bytes',
  };
  const ifNoneMatch = call.request.headers.get('if-none-match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === tag || t.trim() === `W/${tag}`))
    return new Response(null, { status: 304, headers });
  const range = parseRange(call.request.headers.get('range'), file.size);
  if (range === 'unsatisfiable')
    return problemResponse(new NinefoldError('RANGE_NOT_SATISFIABLE', `The file has ${file.size} bytes; ask for a range within them.`), {
      headers: { 'content-range': `bytes */${file.size}` },
    });
  const body = Readable.toWeb(file.read(range ?? undefined)) as ReadableStream<Uint8Array>;
  if (range)
    return new Response(body, {
      status: 206,
      headers: {
        ...headers,
        'content-range': `bytes ${range.start}-${range.end}/${file.size}`,
        'content-length': String(range.end - range.start + 1),
      },
    });
  return new Response(body, { headers: { ...headers, 'content-length': String(file.size) } });
}

/**
 * Upload (staged files for a later write) and download (through the record's access). Downloads
 * serve visitors when the spec lets them read a record holding files; uploads need a sign-in.
 */
export function fileRoutes(model: AppModel): readonly Route[] {
  const visitors = visitorsMayReadFiles(model);
  return [
    {
      method: 'POST',
      path: ['files'],
      access: 'signedIn',
      originCheck: true,
      run: async (call) => {
        const { files } = await stageParts(call.engine, actorOf(call), call.request);
        if (files.length === 0) throw new NinefoldError('VALIDATION_FAILED', 'Send at least one file part.');
        return json({ items: files.map((f) => fileToWire(f.meta)) }, { status: 201 });
      },
    },
    {
      method: 'GET',
      path: ['files', { param: 'id' }],
      access: 'signedIn',
      visitors,
      originCheck: false,
      run: (call) => download(call, 'original'),
    },
    {
      method: 'GET',
      path: ['files', { param: 'id' }, 'thumbnail'],
      access: 'signedIn',
      visitors,
      originCheck: false,
      run: (call) => download(call, 'thumbnail'),
    },
  ];
}
