import { workingDaysText } from '../../time/calendar-text';
import { DEFAULT_SCHEDULER_SECONDS, type AutoModel, type DurationModel } from '../auto';
import type { EntityModel, TransitionModel, WorkflowModel } from '../model';

/** "7 days", "1 hour", "3 working days (Mon–Fri, 2 holidays)". */
function durationText(duration: DurationModel, auto: AutoModel): string {
  if (auto.workingDays) return workingDaysText(duration.amount, auto.workingDays.calendar);
  return `${duration.amount} ${duration.amount === 1 ? duration.unit.slice(0, -1) : duration.unit}`;
}

function amountText(auto: AutoModel): string {
  const duration = auto.duration;
  if (!duration || duration.amount === 0) return '';
  return `${durationText(duration, auto)}${duration.constant ? ` (${duration.constant})` : ''} `;
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
  const amount = auto.workingDays
    ? `${duration.amount} ${duration.amount === 1 ? 'working day' : 'working days'}`
    : `${duration.amount} ${duration.amount === 1 ? duration.unit.slice(0, -1) : duration.unit}`;
  return `Automatically, ${amount} ${auto.side} ${label}.`;
}
