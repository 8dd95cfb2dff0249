/**
 * Shared pieces of the API's integration tests: an engine over a test database, a client that
 * calls handleApiRequest in process (no server) and checks every response against the OpenAPI
 * document, problem assertions, and snapshots of tables to prove a refused write changed nothing.
 */
import { expect } from 'vitest';
import type { Engine } from '@/engine/engine';
import { openSyncedQuickly } from '@testing/engine/ops';
import type { AppModel } from '@/engine/spec/model';
import type { TestDatabase } from '@testing/engine/store';
import type { TestEngine } from '@testing/engine/engine';
import type { DynamicDatabase } from '@/engine/store/types';
import { handleApiRequest } from '@/api/handler';
import { buildOpenApiDocument } from '@/api/openapi/document';
import { createContractChecker, type ContractChecker } from '@/api/openapi/contract';
import { problemType } from '@/api/problem';

import { engineOnStore } from '@testing/engine/store-outage';

export const ORIGIN = 'http://desk.test';

/** An engine as openEngine makes it, on the suite's database, with its store for the test's own set-up. */
export async function openTestEngine(database: TestDatabase, model: AppModel): Promise<TestEngine> {
  return engineOnStore(await openSyncedQuickly(database, model), model);
}

export interface CallOptions {
  /** An object is sent as JSON (content-type application/json unless headers say otherwise). */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Authorization: Bearer <token>. */
  readonly token?: string;
  /** The session cookie's value. */
  readonly session?: string;
  readonly ip?: string;
  /** Skip the OpenAPI contract check (for answers the document cannot describe, e.g. HEAD). */
  readonly unchecked?: boolean;
}

export interface ApiAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, or null for none (or a body that is not JSON: see `text`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read bodies freely
  readonly body: any;
  readonly text: string;
}

export interface ApiClient {
  call(method: string, path: string, options?: CallOptions): Promise<ApiAnswer>;
}

export function apiClient(engine: Engine): ApiClient {
  let checker: ContractChecker | null = null;
  return {
    async call(method, path, options = {}) {
      const headers = new Headers(options.headers);
      let body: BodyInit | undefined;
      if (options.body !== undefined) {
        body =
          typeof options.body === 'string' || options.body instanceof Uint8Array || options.body instanceof FormData
            ? (options.body as BodyInit)
            : JSON.stringify(options.body);
        // FormData sets its own multipart content type, with the boundary.
        if (!headers.has('content-type') && !(options.body instanceof FormData)) headers.set('content-type', 'application/json');
      }
      if (options.token) headers.set('authorization', `Bearer ${options.token}`);
      if (options.session) headers.set('cookie', `theme=dark; nf_session=${options.session}`);
      const url = `${ORIGIN}/api/v1${path}`;
      const request = new Request(url, { method, headers, body });
      const response = await handleApiRequest(engine, request, { clientIp: options.ip ?? '192.0.2.1', origin: ORIGIN });
      if (!options.unchecked && method !== 'HEAD') {
        checker ??= createContractChecker(buildOpenApiDocument(engine.model));
        await checker.checkResponse(method, url, response);
      }
      const text = await response.text();
      // A download's bytes stay text; JSON (and problem+json) is parsed.
      const isJson = /json/i.test(response.headers.get('content-type') ?? '');
      return { status: response.status, headers: response.headers, body: text === '' || !isJson ? null : JSON.parse(text), text };
    },
  };
}

/** A problem response of the catalogue: problem+json, `code`, `status` equal to the HTTP status, a stable `type`. */
export function expectProblem(answer: ApiAnswer, status: number, code: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(answer.body).toMatchObject({ status, code, type: problemType(code) });
  expect(answer.body.type).toMatch(/^https:\/\/ninefold\.dev\/problems\/[a-z0-9]+(-[a-z0-9]+)*$/);
  expect(typeof answer.body.title).toBe('string');
  expect(typeof answer.body.detail).toBe('string');
}

/** Every row of the tables, in id order: compare before and after a refused write. */
export async function snapshot(db: DynamicDatabase, tables: readonly string[]): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const table of tables) result[table] = await db.selectFrom(table).selectAll().orderBy('id').execute();
  return result;
}
