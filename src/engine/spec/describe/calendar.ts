import { workWeekText } from '../../time/calendar-text';
import type { DocBlock } from '../document';
import type { AppModel } from '../model';
import { code } from './text';

/**
 * The working calendar, in point 9 with the other business constants: which days count as
 * working days, where the spec counts them, and the rules of counting (time/working-days.ts).
 * Shown when the spec declares a calendar or counts working days anywhere.
 */
export function calendarBlocks(model: AppModel): DocBlock[] {
  const uses = workingDaysUses(model.spec);
  if (model.spec.calendar === undefined && uses.length === 0) return [];
  const calendar = model.calendar;
  const daysOff = [...calendar.yearly.map((mmdd) => `every ${yearlyText(mmdd)}`), ...calendar.holidays];
  return [
    { kind: 'heading', text: 'Working days' },
    {
      kind: 'paragraph',
      text:
        `Working days are ${workWeekText(calendar)}, read on the clock of ${calendar.zone}` +
        (daysOff.length > 0 ? `, except the days off ${daysOff.map(code).join(', ')}. ` : ', with no days off. ') +
        'A date plus n working days is the n-th working day after it (minus: before it), whatever day the date is. ' +
        'A time on a working day moves to the same time of day n working days later or earlier. ' +
        'A time on a day off counts from the start of the next working day when moving forward (plus 1 working day is then the end of that next working day), and from the end of the previous working day when moving back. ' +
        'Zero working days is no move.',
    },
    ...(uses.length > 0 ? [{ kind: 'paragraph' as const, text: `Counted in ${uses.map(code).join(', ')}.` }] : []),
  ];
}

/** 1225 → "12-25". */
function yearlyText(mmdd: number): string {
  return `${String(Math.floor(mmdd / 100)).padStart(2, '0')}-${String(mmdd % 100).padStart(2, '0')}`;
}

/** Where the spec gives a duration in working days: dotted paths to each `workingDays`. */
function workingDaysUses(spec: unknown): string[] {
  const uses: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) value.forEach((item: unknown, index) => walk(item, `${path}[${index}]`));
    else
      for (const [key, item] of Object.entries(value)) {
        const place = path ? `${path}.${key}` : key;
        // A duration's amount (a number, a constant, an integer field), not a field of that name.
        const amount = typeof item === 'number' || (typeof item === 'object' && item !== null && !('type' in item));
        if (key === 'workingDays' && amount) uses.push(place);
        else walk(item, place);
      }
  };
  walk(spec, '');
  return uses;
}
