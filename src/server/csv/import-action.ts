'use server';

import { forbidden, notFound } from 'next/navigation';
import type { ImportState } from '@/ui/csv/import-state';
import { getEngine } from '../engine';
import { requireActor } from '../session';
import { postedFile, runImport } from './import-run';

/**
 * The import form's door without JavaScript: the file is posted with the form, imported, and the
 * page shows the outcome (with JavaScript the form streams its progress instead: import-stream.ts).
 * The entity is bound by the page; it comes back from the browser, so it is checked again.
 */
export async function importCsvAction(entityName: string, _previous: ImportState, form: FormData): Promise<ImportState> {
  const actor = await requireActor();
  const engine = await getEngine();
  const entity = Object.hasOwn(engine.model.entitiesByName, entityName) ? engine.model.entitiesByName[entityName] : undefined;
  if (!entity) notFound();
  if (!engine.ops.access(actor, entity.name).actions.create) forbidden();
  const file = await postedFile(form);
  if (!file) return { kind: 'refused', fileName: '', title: 'No file', message: 'Choose a CSV file to import.', problems: [] };
  return runImport(engine, actor, entity, file, form.get('goodRows') === '1');
}
