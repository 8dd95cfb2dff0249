import type { WorkflowModel } from '@/engine/spec/model';
import { Badge, type BadgeTone } from './badge';
import { Empty } from './field-value';

/** The workflow state of a record as a badge: initial states stand out, final ones recede. */
export function StateBadge({ workflow, state }: { workflow: WorkflowModel; state: unknown }) {
  if (typeof state !== 'string' || state === '') return <Empty />;
  const model = workflow.states.find((s) => s.name === state);
  const tone: BadgeTone = !model ? 'neutral' : model.initial ? 'accent' : model.final ? 'neutral' : 'warning';
  return <Badge tone={tone}>{model?.label ?? state}</Badge>;
}
