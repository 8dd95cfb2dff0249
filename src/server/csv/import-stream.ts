import 'server-only';
import { isSameOrigin } from '@/api/credentials';
import { resolveLimits } from '@/engine/limits';
import { logLine } from '@/engine/log';
import type { ImportStreamLine } from '@/ui/csv/import-state';
import { getEngine } from '../engine';
import { requestOrigin } from '../request-host';
import { currentActor } from '../session';
import { readPostedImport, runImport } from './import-run';
import { sizeText } from '@/engine/csv/read-csv';
import { writtenOnlyByCalls } from '@/engine/access/policy';
import { mayImport } from './may-import';

function refusal(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

/**
 * POST /<plural>/import/run: the import page's form sent by its script, answered as a stream of
 * NDJSON lines: progress while the rows are read, checked and written, then the outcome (the
 * same as the form's server action gives). Signed-in users only, from the application's own
 * pages (the Origin header, as for every change made with the session cookie).
 */
export async function importStreamResponse(request: Request, plural: string): Promise<Response> {
  if (!isSameOrigin(request.headers, requestOrigin(request.headers))) return refusal(403, 'Cross-site request refused.');
  const engine = await getEngine();
  const entity = Object.hasOwn(engine.model.entitiesByPlural, plural) ? engine.model.entitiesByPlural[plural] : undefined;
  if (!entity) return refusal(404, 'This page or record does not exist, or you cannot see it.');
  if (writtenOnlyByCalls(entity))
    return refusal(405, `${entity.pluralLabel} are written only by the application's calls and workflow: they cannot be imported.`, {
      allow: '',
    });
  const actor = await currentActor();
  if (!actor) return refusal(401, 'Sign in to continue.');
  if (!mayImport(engine.ops, actor, entity)) return refusal(403, 'You are not allowed to do this.');
  const maxBytes = resolveLimits(engine.model).importMaxBytes;
  const posted = await readPostedImport(request, maxBytes);
  if (posted.kind === 'tooLarge') return refusal(413, `The file is too large: at most ${sizeText(maxBytes)} can be imported at once.`);
  if (posted.kind === 'noFile') return refusal(400, 'Choose a CSV file to import.');
  const { file, goodRows } = posted;

  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (line: ImportStreamLine) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
        let shown = '';
        try {
          const state = await runImport(engine, actor, entity, file, goodRows, (p) => {
            // One line per percent and phase is plenty for a progress bar.
            const step = `${p.phase}:${p.total === 0 ? 100 : Math.floor((p.done / p.total) * 100)}`;
            if (step !== shown) send({ type: 'progress', phase: p.phase, done: p.done, total: p.total });
            shown = step;
          });
          send({ type: 'result', state });
          controller.close();
        } catch (error) {
          // The page says the import broke off; the log says why (nothing was written: one transaction).
          logLine('error', 'import failed', {
            entity: entity.name,
            actor: actor.userId,
            error: error instanceof Error ? error.stack : String(error),
          });
          controller.error(error);
        }
      },
    }),
    {
      headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
    },
  );
}
