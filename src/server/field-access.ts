import 'server-only';
import { grantsFor } from '@/engine/access/grants';
import type { Actor } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';

/**
 * @deprecated Use `engine.ops.access(actor, entity).actions` (src/engine/access/entity-access.ts).
 * Kept only until src/app/layout.tsx (navigation) moves to it; then delete this file.
 */
export function mayOffer(entity: EntityModel, actor: Actor, action: 'list' | 'create' | 'update' | 'delete'): boolean {
  return grantsFor(entity, actor, action).length > 0;
}
