import 'server-only';
import { forbidden } from 'next/navigation';
import type { Actor } from '@/engine/ground/actor';
import { mayReadDocumentation } from '@/engine/spec/screens/documentation';
import { getEngine } from './engine';
import { requireActor } from './session';

/**
 * The signed-in reader of /spec or /api/docs: a visitor is sent to sign in, a user whose roles
 * `screens.documentation` does not name gets the 403 page (those documents tell every role's
 * permissions and every internal field).
 */
export async function requireDocumentationReader(returnTo: string): Promise<Actor> {
  const actor = await requireActor(returnTo);
  const { model } = await getEngine();
  if (!mayReadDocumentation(model.documentation, actor.roles)) forbidden();
  return actor;
}
