import type { Condition } from '../spec/types';
import type { WorkingCalendar } from '../time/working-days';
import { compileCondition, type ConstantValues } from './compile';
import type { CompiledCondition } from './types';

/**
 * Every condition of a model in its compiled form, by the spec's condition object: the model
 * build compiles each once (build.ts), and readers look them up. A condition the spec does not
 * hold (a test's, a filter made at run time) is compiled when first asked for, and kept.
 */
export interface ConditionBook {
  of(condition: Condition): CompiledCondition;
}

export function conditionBook(
  constants: ConstantValues,
  conditions: Iterable<Condition | null | undefined>,
  calendar?: WorkingCalendar,
): ConditionBook {
  const compiled = new WeakMap<Condition, CompiledCondition>();
  const of = (condition: Condition) => {
    let found = compiled.get(condition);
    if (!found) {
      found = compileCondition(condition, constants, calendar);
      compiled.set(condition, found);
    }
    return found;
  };
  for (const condition of conditions) if (condition) of(condition);
  return { of };
}

/**
 * What a reader needs of the model to find a condition's compiled form: its book, or at least its
 * constants and calendar (a form's).
 */
export interface ConditionSource {
  readonly constants: ConstantValues;
  readonly calendar?: WorkingCalendar;
  readonly conditions?: ConditionBook;
}

/** The compiled form of a condition: the model's, or compiled here when there is no model (the browser). */
export function compiledOf(source: ConditionSource, condition: Condition): CompiledCondition {
  return source.conditions ? source.conditions.of(condition) : compileCondition(condition, source.constants, source.calendar);
}
