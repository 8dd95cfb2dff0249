import { DEFAULT_SCHEDULER_SECONDS, type AutoModel } from '../auto';
import type { EntityModel, TransitionModel, WorkflowModel } from '../model';

function amountText(auto: AutoModel): string {
  const duration = auto.duration;
  if (!duration || duration.amount === 0) return '';
  const unit = duration.amount === 1 ? duration.unit.slice(0, -1) : duration.unit;
  return `${duration.amount} ${unit}${duration.constant ? ` (${duration.constant})` : ''} `;
}

/** When it falls due, by the spec's names: `7 days (autoCloseDays) after resolvedAt`, `at publishAt`. */
export function autoWhenText(auto: AutoModel): string {
  const amount = amountText(auto);
  return amount === '' ? `at ${auto.field}` : `${amount}${auto.side} ${auto.field}`;
}

/** The Who column's entry: `automatically, 7 days (autoCloseDays) after resolvedAt`. */
export function autoWhoText(transition: TransitionModel): string | null {
  return transition.auto ? `automatically, ${autoWhenText(transition.auto)}` : null;
}

/** How the scheduler works, said once per workflow that has an automatic transition. */
export function autoParagraph(workflow: WorkflowModel): string | null {
  if (!workflow.transitions.some((t) => t.auto)) return null;
  return (
    'An automatic transition is taken by the system (no user; the history says "automatically") on each record in one of its From states once its time has passed and its requirements and guards hold; ' +
    `an empty date means never. Every server checks every ${DEFAULT_SCHEDULER_SECONDS} seconds (NINEFOLD_SCHEDULER_SECONDS sets another interval) and takes each due record once, however many servers share the database; ` +
    'records that fell due while no server ran are taken at the next start. Those whose guard does not hold stay as they are. ' +
    'Roles in the Who column may also take it by hand.'
  );
}

/** The history's comment on an automatic transition, in the viewer's words: "Automatically, 7 days after Resolved at." */
export function describeAutoReason(entity: EntityModel, transition: TransitionModel): string {
  const auto = transition.auto!;
  const label = entity.fieldsByName[auto.field]?.label ?? entity.systemColumns.find((c) => c.name === auto.field)?.label ?? auto.field;
  const duration = auto.duration;
  if (!duration || duration.amount === 0) return `Automatically, at ${label}.`;
  const unit = duration.amount === 1 ? duration.unit.slice(0, -1) : duration.unit;
  return `Automatically, ${duration.amount} ${unit} ${auto.side} ${label}.`;
}
