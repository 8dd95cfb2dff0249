import type { Ops } from '@/engine/ops/ops';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { listFor } from '@/engine/spec/screens/for-roles';

/**
 * Whether the actor may import records of the entity from CSV: they may create them (ops checks
 * each row again), and their list offers import (a role's list may not: a customer opens tickets
 * one by one). The list's button, the import page, its template and both of its runs ask this.
 */
export function mayImport(ops: Pick<Ops, 'access'>, actor: Actor, entity: EntityModel): boolean {
  return ops.access(actor, entity.name).actions.create && listFor(entity, actor).import;
}
