import { describe, expect, it, vi } from 'vitest';
import { readPostedImport } from './import-run';

// A marker for Next.js's bundler; outside it, nothing to guard.
vi.mock('server-only', () => ({}));

const MAX_BYTES = 4096;

/** A body sent in chunks, with no Content-Length: counts how much of it was pulled. */
function chunked(chunks: number, size: number): { request: Request; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled += 1;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
  const request = new Request('http://app.test/notes/import/run', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
  } as RequestInit);
  return { request, pulled: () => pulled };
}

describe('the posted import form', () => {
  it('is read up to the import’s limit, however the body comes: a chunked body without a length is cut short', async () => {
    // 100 MB announced by nobody: the reader stops a little past the limit and its framing.
    const { request, pulled } = chunked(1600, 64 * 1024);
    expect(await readPostedImport(request, MAX_BYTES)).toEqual({ kind: 'tooLarge' });
    expect(pulled()).toBeLessThan(4);
  });

  it('refuses a declared length past the limit before reading', async () => {
    const request = new Request('http://app.test/notes/import/run', {
      method: 'POST',
      body: 'x',
      headers: { 'content-length': String(10 * 1024 * 1024) },
    });
    expect(await readPostedImport(request, MAX_BYTES)).toEqual({ kind: 'tooLarge' });
  });

  it('gives the file and the choice of good rows, or says there is no file', async () => {
    const form = new FormData();
    form.append('file', new Blob(['Title\r\nFirst\r\n'], { type: 'text/csv' }), 'notes.csv');
    form.append('goodRows', '1');
    const posted = await readPostedImport(new Request('http://app.test/', { method: 'POST', body: form }), MAX_BYTES);
    expect(posted).toMatchObject({ kind: 'file', goodRows: true, file: { name: 'notes.csv' } });
    expect(posted.kind === 'file' && new TextDecoder().decode(posted.file.bytes)).toBe('Title\r\nFirst\r\n');
    expect(await readPostedImport(new Request('http://app.test/', { method: 'POST', body: new FormData() }), MAX_BYTES)).toEqual({
      kind: 'noFile',
    });
    expect(await readPostedImport(new Request('http://app.test/', { method: 'POST', body: 'not a form' }), MAX_BYTES)).toEqual({
      kind: 'noFile',
    });
  });
});
