import 'server-only';
import { notFound } from 'next/navigation';
import type { Engine } from '@/engine/engine';
import type { RecordView } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { getEngine } from './engine';
import { asNinefoldError } from './errors';
import { positiveInteger } from './forms';
import { signInIfVisitor } from './viewer';

/** The entity a URL segment names; any other segment is a 404. */
export async function entityForPlural(plural: string): Promise<{ engine: Engine; entity: EntityModel }> {
  const engine = await getEngine();
  const entity = Object.hasOwn(engine.model.entitiesByPlural, plural) ? engine.model.entitiesByPlural[plural] : undefined;
  if (!entity) notFound();
  return { engine, entity };
}

/** A record id from the URL: a positive integer, or a 404. */
export function recordIdOrNotFound(raw: string): number {
  const id = positiveInteger(raw);
  if (id === null) notFound();
  return id;
}

/**
 * The record, or a 404 when ops says it is absent or out of the actor's reach (an outsider
 * learns nothing more than that). Any other failure is thrown on to the error boundary.
 */
export async function recordOrNotFound(engine: Engine, actor: Actor, entity: EntityModel, id: number): Promise<RecordView> {
  try {
    return await engine.ops.get(actor, entity.name, id);
  } catch (error) {
    const code = asNinefoldError(error)?.code;
    if (code === 'NOT_FOUND' || code === 'FORBIDDEN') {
      // A visitor learns only that this needs a sign-in (whether the record exists or not).
      signInIfVisitor(actor, `/${entity.plural}/${id}`);
      notFound();
    }
    throw error;
  }
}
