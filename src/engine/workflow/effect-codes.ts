import { ruleCodes } from '../rules/rules-refusal';
import type { AppModel, ReferenceEffectModel, TransitionModel } from '../spec/model';
import { guardCodes } from './guards';

/**
 * The catalogue codes a write's effects on referenced records may refuse it with, besides the
 * write's own: the referenced record's final state, rules and `uniqueWhen`, and for a transition
 * its owners' and guards' codes, wrong state included (and so on down the effects it has in
 * turn). The OpenAPI document lists them with the operation.
 */
export function effectCodes(model: AppModel, effects: readonly ReferenceEffectModel[], seen = new Set<string>()): string[] {
  const codes = new Set<string>();
  for (const effect of effects) {
    const target = model.entitiesByName[effect.target];
    if (!target) continue;
    for (const code of ruleCodes(target)) codes.add(code);
    if (target.workflow) codes.add(target.workflow.finalError);
    codes.add('NOT_FOUND');
    if (effect.kind === 'set') {
      if (effect.as === 'actor') for (const code of ['FORBIDDEN', 'FORBIDDEN_FIELD']) codes.add(code);
      continue;
    }
    const transition = target.workflow?.transitions.find((t) => t.name === effect.transition);
    if (!transition) continue;
    codes.add('TRANSITION_NOT_ALLOWED');
    for (const code of [...ownerCodes(transition), ...guardCodes(transition)]) codes.add(code);
    // Each transition's own effects once: a spec whose effects loop back is cut off at run time.
    const key = `${target.name}.${transition.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const code of effectCodes(model, transition.referenceEffects, seen)) codes.add(code);
  }
  return [...codes];
}

/** The codes an owner refused past their `when` answers with. */
function ownerCodes(transition: TransitionModel): string[] {
  return transition.allow.flatMap((entry) => (typeof entry === 'string' || !entry.error ? [] : [entry.error]));
}
