import { checkCondition } from './conditions';
import { at, describeValue, isString, quoteList, type EntityInfo, type Issues, type Rec, type Symbols } from './context';
import { checkEffectValue } from './effect-value';

/*
 * The spec's consequences of writes, checked at load: effects on the record a reference field
 * points at (`{ on, set, to }`, `{ on, transition }`, with `as`), and transition targets chosen
 * by the data (`to: [{ when, state }, ..., { state }]`).
 */

const REFERENCE_EFFECT_KEYS = ['on', 'set', 'to', 'transition', 'as'];
const AUTHORITIES = ['actor', 'system'];

/** Whether a raw effect acts on a referenced record. */
export function isReferenceEffectEntry(effect: Rec): boolean {
  return 'on' in effect;
}

/** One effect on a referenced record of `entity`. */
export function checkReferenceEffect(effect: Rec, path: string, entity: EntityInfo, symbols: Symbols, issues: Issues): void {
  issues.unknownKeys(effect, REFERENCE_EFFECT_KEYS, path, 'an effect on a referenced record');
  const reference = isString(effect.on) ? entity.fields.get(effect.on) : undefined;
  if (!reference || reference.type !== 'reference') {
    const references = [...entity.fields].filter(([, f]) => f.type === 'reference').map(([name]) => name);
    issues.add(
      at(path, 'on'),
      `${describeValue(effect.on)} is not a reference field of ${entity.name} (reference fields: ${quoteList(references)})`,
    );
    return;
  }
  if (effect.as !== undefined && !AUTHORITIES.includes(effect.as as string)) {
    issues.add(
      at(path, 'as'),
      `must be "actor" (the default: their grants apply) or "system" (the engine's), got ${describeValue(effect.as)}`,
    );
  }
  const target = isString(reference.to) ? symbols.entities.get(reference.to) : undefined;
  if (!target) return; // the reference field's own check reports its unknown entity
  const sets = effect.set !== undefined;
  const takes = effect.transition !== undefined;
  if (sets === takes) {
    issues.add(path, 'an effect on a referenced record either sets a field ({ on, set, to }) or takes a transition ({ on, transition })');
    return;
  }
  if (takes) {
    const transitions = target.workflow?.transitions ?? [];
    if (!isString(effect.transition) || !transitions.includes(effect.transition)) {
      issues.add(
        at(path, 'transition'),
        `unknown transition ${describeValue(effect.transition)} of ${target.name} (transitions: ${quoteList(transitions)})`,
      );
    }
    if ('to' in effect) issues.add(at(path, 'to'), 'a transition sets the state itself; `to` belongs with `set`');
    return;
  }
  const field = isString(effect.set) ? target.fields.get(effect.set) : undefined;
  if (!field) {
    const hint = effect.set === target.workflow?.field ? ' (take one of its transitions to change the state)' : '';
    issues.add(at(path, 'set'), `unknown field ${describeValue(effect.set)} of ${target.name}${hint}`);
    return;
  }
  if (!('to' in effect)) issues.add(at(path, 'to'), 'is required (null clears the field)');
  else checkEffectValue(effect.to, field, at(path, 'to'), String(effect.set), issues);
}

/** An entity's `onCreate`: a list of effects on referenced records. */
export function checkOnCreate(value: unknown, path: string, entity: EntityInfo, symbols: Symbols, issues: Issues): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    issues.add(path, 'must be a list of effects on referenced records ({ on, set, to } or { on, transition })');
    return;
  }
  value.forEach((effect: unknown, index) => {
    const effectPath = at(path, index);
    if (!issues.record(effect, effectPath, 'an effect')) return;
    if (!isReferenceEffectEntry(effect))
      issues.add(at(effectPath, 'on'), 'is required: the reference field whose record the effect acts on');
    else checkReferenceEffect(effect, effectPath, entity, symbols, issues);
  });
}

/**
 * A transition's `to`: a state, or targets tried in order, each `{ when, state }` but the last,
 * which has no `when` (the state entered otherwise), so that one always holds.
 */
export function checkTargets(
  to: unknown,
  path: string,
  entity: EntityInfo,
  symbols: Symbols,
  issues: Issues,
  checkState: (state: unknown, path: string) => void,
): void {
  if (!Array.isArray(to)) {
    checkState(to, path);
    return;
  }
  if (to.length === 0) {
    issues.add(path, 'must be a state or a non-empty list of targets ({ when, state }, ..., { state })');
    return;
  }
  to.forEach((target: unknown, index) => {
    const place = at(path, index);
    if (!issues.record(target, place, 'a target')) return;
    issues.unknownKeys(target, ['when', 'state'], place, 'a target');
    checkState(target.state, at(place, 'state'));
    const last = index === to.length - 1;
    if (last && target.when !== undefined) {
      issues.add(at(place, 'when'), 'the last target has no `when`: it is the state entered when no earlier one holds');
    } else if (!last && target.when === undefined) {
      issues.add(at(place, 'when'), 'is required: only the last target may leave it out (the state entered otherwise)');
    } else if (target.when !== undefined) {
      checkCondition(target.when, at(place, 'when'), entity, symbols, issues, { actor: true });
    }
  });
}
