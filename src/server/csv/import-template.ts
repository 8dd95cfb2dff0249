import 'server-only';
import { importableFields } from '@/engine/csv/import-columns';
import { getEngine } from '../engine';
import { requireActor } from '../session';
import { BOM, csvLines } from './export-csv';
import { writtenOnlyByCalls } from '@/engine/access/policy';
import { mayImport } from './may-import';

/**
 * GET /<plural>/import/template.csv: a file holding just the header row of the fields the
 * signed-in user may set on a new record, by their labels: filled in and imported as it is.
 */
export async function importTemplateResponse(request: Request, plural: string): Promise<Response> {
  const engine = await getEngine();
  const entity = Object.hasOwn(engine.model.entitiesByPlural, plural) ? engine.model.entitiesByPlural[plural] : undefined;
  if (!entity || writtenOnlyByCalls(entity))
    return new Response('This page or record does not exist, or you cannot see it.\n', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  const url = new URL(request.url);
  const actor = await requireActor(url.pathname);
  const access = engine.ops.access(actor, entity.name);
  if (!mayImport(engine.ops, actor, entity))
    return new Response('You are not allowed to do this.\n', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return new Response(`${BOM}${csvLines([importableFields(entity, access).map((f) => f.label)])}`, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${entity.plural}-import-template.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
