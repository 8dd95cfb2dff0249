import type { Engine } from '@/engine/engine';
import { notFound } from '@/engine/errors/ninefold-error';
import type { EntityModel } from '@/engine/spec/model';

/**
 * The entity a form door names (its hidden input or bound argument), for the plain functions
 * behind the server actions; an unknown name is NOT_FOUND (the action answers with the 404 page).
 */
export function entityNamed(engine: Engine, name: string, options: { withWorkflow?: boolean } = {}): EntityModel {
  const entity = Object.hasOwn(engine.model.entitiesByName, name) ? engine.model.entitiesByName[name] : undefined;
  if (!entity || (options.withWorkflow && !entity.workflow)) throw notFound('page');
  return entity;
}
