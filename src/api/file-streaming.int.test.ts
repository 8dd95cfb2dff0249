import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';

/*
 * A 200 MB file goes up and comes back down through the API without the server holding it: the
 * server runs in a process of its own (src/api/fixtures/file-server.ts) whose resident memory is
 * sampled while the bytes pass, on each database (the PostgreSQL store keeps them in chunks). The
 * test generates and checks the bytes as a stream too, so neither side ever has them whole.
 */
const FILE_BYTES = 200 * 1024 * 1024;
const PIECE = 64 * 1024;
/**
 * Under half the file: a store or a parser that buffered it would grow by 200 MB or more. Measured
 * here: about 13 MB on PGlite, about 70 MB on PostgreSQL, where the pg driver's strings of each
 * chunk are garbage V8 collects in its own time (the heap saws between 30 and 75 MB, never more).
 */
const MAX_GROWTH_BYTES = 96 * 1024 * 1024;
const TIMEOUT_MS = 240_000;

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Piece `n` of the file: text (so the type read is text/plain), different from piece to piece. */
function piece(n: number): Buffer {
  const line = Buffer.from(`piece ${String(n).padStart(8, '0')} of a large generated file\n`);
  return Buffer.alloc(PIECE, line);
}

forEachDatabase('files: a 200 MB file streamed up and down', (database) => {
  let child: ChildProcess;
  let port = 0;
  let token = '';
  let peak = 0;
  let sampler: NodeJS.Timeout;

  beforeAll(async () => {
    const options = await database.options();
    child = spawn(process.execPath, ['--import', 'tsx', 'src/api/fixtures/file-server.ts', JSON.stringify(options)], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    [port, token] = await new Promise<[number, string]>((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /ready (\d+) (\S+)\n/.exec(output);
        if (ready) resolve([Number(ready[1]), ready[2]!]);
      });
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`file server exited (${code}): ${output}`)));
    });
  }, TIMEOUT_MS);

  afterAll(async () => {
    clearInterval(sampler);
    if (!child || child.exitCode !== null) return;
    // Waited for: the database's directory is removed after this, and the server may still be writing to it.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }, TIMEOUT_MS);

  /** POST /files with a multipart body written piece by piece as the socket takes it. */
  function upload(pieces: number): Promise<{ status: number; body: string; sha256: string }> {
    const boundary = 'ninefold-streaming-test';
    const hash = createHash('sha256');
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          port,
          method: 'POST',
          path: '/api/v1/files',
          headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body, sha256: hash.digest('hex') }));
        },
      );
      request.on('error', reject);
      request.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.log"\r\nContent-Type: text/plain\r\n\r\n`,
      );
      let n = 0;
      const more = () => {
        while (n < pieces) {
          const bytes = piece(n);
          hash.update(bytes);
          n += 1;
          if (!request.write(bytes)) return void request.once('drain', more);
        }
        request.end(`\r\n--${boundary}--\r\n`);
      };
      more();
    });
  }

  /** GET a file, hashing and counting its bytes as they arrive. */
  function download(id: number): Promise<{ status: number; size: number; sha256: string }> {
    const hash = createHash('sha256');
    let size = 0;
    return new Promise((resolve, reject) => {
      http
        .get({ port, path: `/api/v1/files/${id}`, headers: { authorization: `Bearer ${token}` } }, (response) => {
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            hash.update(chunk);
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, size, sha256: hash.digest('hex') }));
        })
        .on('error', reject);
    });
  }

  it(
    'keeps the server process far below the size of the file, both ways, and gives back the same bytes',
    async () => {
      // Warm up: the modules an upload and a download load (busboy, file-type, sharp) are in memory.
      const small = await upload(4);
      expect(small.status, small.body).toBe(201);
      const smallId = (JSON.parse(small.body) as { items: { id: number }[] }).items[0]!.id;
      expect((await download(smallId)).size).toBe(4 * PIECE);

      const baseline = rssOf(child.pid!);
      peak = baseline;
      sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 20);
      const up = await upload(FILE_BYTES / PIECE);
      expect(up.status, up.body).toBe(201);
      const item = (JSON.parse(up.body) as { items: { id: number; size: number; contentType: string }[] }).items[0]!;
      expect(item).toMatchObject({ size: FILE_BYTES, contentType: 'text/plain' });
      const down = await download(item.id);
      clearInterval(sampler);
      expect(down).toEqual({ status: 200, size: FILE_BYTES, sha256: up.sha256 });
      const growth = peak - baseline;
      expect(growth, `the server grew by ${Math.round(growth / 1024 / 1024)} MB`).toBeLessThan(MAX_GROWTH_BYTES);
    },
    TIMEOUT_MS,
  );
});
