import 'server-only';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import type { Condition } from '@/engine/spec/types';
import type { RecordView } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import type { RelatedSectionView } from '@/ui/record/related-section-view';
import type { Counterpart } from '@/ui/record/counterpart-view';

/** How many of the counterpart's other records the side panel lists. */
const OTHERS = 5;

/**
 * The person a thread is with: the first user field of the record that a thread's `transitions`
 * name (whose replies move the record), when the viewer reads it and it holds someone. Their
 * other records are read through ops as the viewer: only what the viewer may list is there.
 */
export async function counterpartOf(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  view: RecordView,
  sections: readonly RelatedSectionView[],
): Promise<Counterpart | null> {
  const { record, references } = view;
  const field = sections
    .filter((s) => s.section.display === 'thread')
    .flatMap((s) => Object.keys(s.section.transitions))
    .map((name) => entity.fieldsByName[name])
    .find((f) => f?.type === 'user' && typeof record[f.name] === 'number');
  if (!field) return null;
  const userId = record[field.name] as number;
  const workflow = entity.workflow;
  const finals = workflow?.states.filter((s) => s.final).map((s) => s.name) ?? [];
  const where: Condition = {
    all: [
      { field: field.name, op: 'eq', value: userId },
      { field: 'id', op: 'ne', value: record.id },
      ...(workflow && finals.length > 0 ? [{ field: workflow.field, op: 'notIn' as const, value: finals }] : []),
    ],
  };
  const fields = [field.name, 'id', ...(workflow ? [workflow.field] : [])];
  if (!engine.ops.mayQuery(actor, entity.name, { fields, where })) return null;
  const [page, count] = await Promise.all([
    engine.ops.list(actor, entity.name, { where, sort: '-updatedAt', limit: OTHERS }),
    engine.ops.count(actor, entity.name, { where }, 100),
  ]);
  return {
    field: field.name,
    label: field.label,
    userId,
    name: references[field.name]?.[userId] ?? `#${userId}`,
    self: userId === actor.userId,
    others: page.rows,
    count,
  };
}
