import { AUTO_FROM_SYSTEM, DURATION_UNITS } from '../auto';
import {
  at,
  describeValue,
  isConstantRef,
  isFiniteNumber,
  isInteger,
  isString,
  quoteList,
  type Issues,
  type Rec,
  type Symbols,
} from './context';
import type { EntityInfo } from './context';

/**
 * A transition's `auto`: after or before one date or datetime of the record (or createdAt /
 * updatedAt), by at most one duration of minutes, hours, days or working days (a number ≥ 0, whole
 * for working days, or a constant naming one). The scheduler takes it as the system, so nothing in it may depend on who acts:
 * checkAutoTransition refuses the parts of the transition that would.
 */
export function checkAuto(auto: unknown, path: string, entity: EntityInfo, symbols: Symbols, issues: Issues): void {
  if (!issues.record(auto, path, 'an automatic transition ({ after | before, minutes | hours | days | workingDays })')) return;
  issues.unknownKeys(auto, ['after', 'before', ...DURATION_UNITS], path, 'an automatic transition');
  const sides = (['after', 'before'] as const).filter((side) => auto[side] !== undefined);
  const times = [
    ...AUTO_FROM_SYSTEM,
    ...[...entity.fields].filter(([, f]) => f.type === 'datetime' || f.type === 'date').map(([name]) => name),
  ];
  if (sides.length !== 1) {
    issues.add(path, `needs exactly one of "after" and "before": the date or datetime it counts from (${quoteList(times)})`);
  } else {
    const side = sides[0]!;
    const field = auto[side];
    if (!isString(field) || !times.includes(field)) {
      issues.add(at(path, side), `${describeValue(field)} is not a date or datetime of ${entity.name} (${quoteList(times)})`);
    }
  }
  checkDuration(auto, path, symbols, issues);
}

/** At most one unit, each a number ≥ 0 (whole for working days) or a constant whose value is one. */
export function checkDuration(duration: Rec, path: string, symbols: Symbols, issues: Issues): void {
  const units = DURATION_UNITS.filter((unit) => duration[unit] !== undefined);
  if (units.length > 1) issues.add(path, `give the duration in one unit, not ${quoteList(units)}`);
  for (const unit of units) {
    const amount = duration[unit];
    let value: unknown = amount;
    let via = '';
    if (isConstantRef(amount)) {
      if (!isString(amount.$constant) || !symbols.constants.has(amount.$constant)) {
        issues.add(
          at(at(path, unit), '$constant'),
          `unknown constant ${describeValue(amount.$constant)} (constants: ${quoteList(symbols.constants.keys())})`,
        );
        continue;
      }
      value = symbols.constants.get(amount.$constant);
      via = ` (constant "${amount.$constant}")`;
    }
    if (!isFiniteNumber(value) || value < 0) {
      issues.add(at(path, unit), `must be a number ≥ 0 of ${unit} or { $constant } naming one, got ${describeValue(value)}${via}`);
    } else if (unit === 'workingDays' && !isInteger(value)) {
      issues.add(at(path, unit), `working days are whole days: must be a whole number, got ${value}${via}`);
    }
  }
}

/**
 * What an automatic transition may not have: a target among its own sources (it would be due
 * again at once, forever), effects that set the actor (the system is nobody's account).
 */
export function checkAutoTransition(transition: Rec, path: string, issues: Issues): void {
  const from: unknown[] = Array.isArray(transition.from) ? transition.from : [transition.from];
  // `to` is a state, or targets chosen by the data (`[{ when, state }, …]`): none may be a source.
  const targets: unknown[] = Array.isArray(transition.to)
    ? transition.to.map((target: unknown) => (typeof target === 'object' && target !== null ? (target as Rec).state : undefined))
    : [transition.to];
  for (const state of new Set(targets.filter(isString))) {
    if (!from.includes(state)) continue;
    issues.add(at(path, 'to'), `an automatic transition cannot lead back to "${state}", where it starts: it would be due again at once`);
  }
  if (Array.isArray(transition.effects)) {
    transition.effects.forEach((effect: unknown, index) => {
      if (typeof effect === 'object' && effect !== null && (effect as Rec).to === 'actor') {
        issues.add(
          at(at(at(path, 'effects'), index), 'to'),
          '"actor" is the user who takes the transition, and an automatic transition is taken by the system: no user to set',
        );
      }
    });
  }
}
