import { notFound } from '../errors/ninefold-error';
import type { AppModel, EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';

export interface OpsContext {
  readonly model: AppModel;
  readonly db: DynamicDatabase;
}

export function entityOf(model: AppModel, name: string): EntityModel {
  const entity = model.entitiesByName[name];
  if (!entity) throw notFound('page');
  return entity;
}
