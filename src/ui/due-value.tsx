import { TimeValue } from './field-value';
import type { FormattedTime } from './format';

/** A due time, marked "Overdue" in words (not by colour alone) once it has passed with the work not done. */
export function DueValue({ time, overdue }: { time: FormattedTime | null; overdue: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
      <TimeValue time={time} />
      {overdue ? (
        <span
          className="inline-flex items-center rounded-full bg-red-50 px-1.5 py-px text-xs font-medium text-red-700 ring-1 ring-red-600/20 ring-inset"
          data-overdue=""
        >
          Overdue
        </span>
      ) : null}
    </span>
  );
}
