import type { EntityModel, ReferenceEffectModel, TransitionTargetModel } from './model';
import type { EffectSpec, ReferenceEffectSpec, TransitionSpec } from './types';

/*
 * The model of a write's consequences: a transition's targets (a state, or states chosen by the
 * data) and effects on referenced records. Built once; ops and the documents read these.
 */

/** A transition's `to` as a list of targets: one unconditional for a plain state. */
export function buildTargets(to: TransitionSpec['to']): readonly TransitionTargetModel[] {
  if (typeof to === 'string') return [{ state: to }];
  return to.map((target) => (target.when === undefined ? { state: target.state } : { state: target.state, when: target.when }));
}

/** Whether an effect of the spec acts on a referenced record (`on`) rather than on the record itself. */
export function isReferenceEffect(effect: EffectSpec | ReferenceEffectSpec): effect is ReferenceEffectSpec {
  return 'on' in effect;
}

/** The effects on referenced records, each with the entity its reference points at and its authority (default the actor's). */
export function buildReferenceEffects(
  fields: Pick<EntityModel, 'fieldsByName'>['fieldsByName'],
  effects: readonly (EffectSpec | ReferenceEffectSpec)[],
): readonly ReferenceEffectModel[] {
  return effects.filter(isReferenceEffect).map((effect) => {
    const target = fields[effect.on]?.referenceTo;
    if (!target) throw new Error(`The effect on "${effect.on}" names no reference field, though the spec's validation checks it`);
    const base = { on: effect.on, target, as: effect.as ?? 'actor' } as const;
    return 'transition' in effect
      ? { ...base, kind: 'transition', transition: effect.transition }
      : { ...base, kind: 'set', set: effect.set, to: effect.to };
  });
}

/** The effects that set fields of the record itself. */
export function ownEffects(effects: readonly (EffectSpec | ReferenceEffectSpec)[]): readonly EffectSpec[] {
  return effects.filter((effect): effect is EffectSpec => !isReferenceEffect(effect));
}
