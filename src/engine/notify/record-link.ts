import type { EntityModel } from '../spec/model';

/** The path of a record's page, which a notification links to (relative: the door adds the origin where it needs one). */
export function recordPath(entity: Pick<EntityModel, 'plural'>, id: number): string {
  return `/${entity.plural}/${id}`;
}
