import 'server-only';
import type { RequestPlace } from '@/api/build-routes.mjs';
import { readCookie, SESSION_COOKIE } from '@/api/credentials';
import { doorRefusal, wantsPage } from '@/api/door-refusal.mjs';
import { sizeText } from '@/engine/csv/read-csv';
import type { Engine } from '@/engine/engine';
import { resolveLimits } from '@/engine/limits';
import { inSentence } from '@/engine/spec/naming';
import type { ImportState } from '@/ui/csv/import-state';
import { readPostedImport, runImport } from './import-run';
import { IMPORT_REPORT_HEADER, reportHeaderValue } from './import-report';
import { writtenOnlyByCalls } from '@/engine/access/policy';
import { mayImport } from './may-import';

/**
 * The import page's form posted without JavaScript: its file goes to the import's own route
 * (/<plural>/import/run, which the page's script streams from), with the import's own limit
 * (importMaxBytes), never to a server action, whose bodies are limited to what forms send
 * (src/server/form-post-limit.ts). `npm start`'s server (scripts/server.mjs) hands such a post
 * here; the import runs as the signed-in user, and the server then renders the import page with
 * the report, carried in a header only the server itself can set (src/api/incoming-headers.mjs
 * drops any a client sends).
 */
export const IMPORT_DOOR = Symbol.for('ninefold.importDoor');

/** What the server sends: a refusal or redirect, or the import page rendered with the report. */
export type ImportDoorAnswer =
  | { readonly status: number; readonly headers: Record<string, string>; readonly body: string }
  | { readonly render: { readonly path: string; readonly headers: Record<string, string> } };

export interface ImportDoor {
  /** Whether a request is a browser's own post of the import form (the page's script asks for NDJSON instead). */
  claims(
    request: { readonly method?: string; readonly headers: Readonly<Record<string, string | string[] | undefined>> },
    place: RequestPlace,
  ): boolean;
  run(request: Request, place: RequestPlace): Promise<ImportDoorAnswer>;
}

const RUN_PATH = /^\/([^/]+)\/import\/run$/;

function pluralOf(place: RequestPlace): string | null {
  const segment = RUN_PATH.exec(place.path)?.[1];
  if (segment === undefined) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function refusal(code: 'FORBIDDEN' | 'NOT_FOUND', detail: string): ImportDoorAnswer {
  return doorRefusal(code, detail, true);
}

function refused(title: string, message: string): ImportState {
  return { kind: 'refused', fileName: '', title, message, problems: [] };
}

/** The door for one engine (exported for tests). */
export function importDoor(engine: Engine): ImportDoor {
  const maxBytes = resolveLimits(engine.model).importMaxBytes;

  /** The report of one post: the import's, or why the file could not be read. */
  async function report(
    request: Request,
    run: (file: { name: string; bytes: Uint8Array }, goodRows: boolean) => Promise<ImportState>,
  ): Promise<ImportState> {
    const posted = await readPostedImport(request, maxBytes);
    if (posted.kind === 'tooLarge') return refused('The file is too large', `At most ${sizeText(maxBytes)} can be imported at once.`);
    if (posted.kind === 'noFile') return refused('No file', 'Choose a CSV file to import.');
    return run(posted.file, posted.goodRows);
  }

  return {
    claims: (request, place) => String(request.method).toUpperCase() === 'POST' && wantsPage(request.headers) && pluralOf(place) !== null,

    async run(request, place) {
      const plural = pluralOf(place) ?? '';
      const entity = Object.hasOwn(engine.model.entitiesByPlural, plural) ? engine.model.entitiesByPlural[plural] : undefined;
      // An entity only the spec's calls write has no import, for anyone (as its page says).
      if (!entity || writtenOnlyByCalls(entity)) return refusal('NOT_FOUND', 'There is no such import.');
      const page = `/${entity.plural}/import`;
      const token = readCookie(request.headers.get('cookie'), SESSION_COOKIE);
      const actor = token === null ? null : await engine.identity.actorForSession(token);
      if (!actor)
        return { status: 303, headers: { location: `/sign-in?next=${encodeURIComponent(page)}`, 'cache-control': 'no-store' }, body: '' };
      if (!mayImport(engine.ops, actor, entity)) return refusal('FORBIDDEN', `You may not import ${inSentence(entity.pluralLabel)}.`);
      const state = await report(request, (file, goodRows) => runImport(engine, actor, entity, file, goodRows));
      return { render: { path: page, headers: { [IMPORT_REPORT_HEADER]: reportHeaderValue(state) } } };
    },
  };
}

/** Puts this engine's import door where scripts/server.mjs looks for it. */
export function registerImportDoor(engine: Engine): void {
  (globalThis as Record<symbol, unknown>)[IMPORT_DOOR] = importDoor(engine);
}
