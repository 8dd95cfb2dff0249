import type { DocBlock } from '../document';
import type { AppModel, EntityModel, ReferenceEffectModel, TransitionModel, WorkflowModel } from '../model';
import { inSentence } from '../naming';
import { code, conditionText } from './text';

/*
 * A write's consequences in words, for /spec and `describe`: where a transition leads when the
 * data chooses, and what it (or a create) does to the records its references point at, with
 * whose authority.
 */

function stateLabel(workflow: WorkflowModel, name: string): string {
  return workflow.states.find((s) => s.name === name)?.label ?? name;
}

/**
 * The To column: the state's name for one target; for targets chosen by the data, "Second
 * approval when Amount is more than 10,000, otherwise Approved".
 */
export function targetText(entity: EntityModel, transition: TransitionModel): string {
  const [only] = transition.to;
  if (transition.to.length === 1 && only) return only.state;
  const workflow = entity.workflow!;
  return transition.to
    .map((target) =>
      target.when === undefined
        ? `otherwise ${stateLabel(workflow, target.state)}`
        : `${stateLabel(workflow, target.state)} when ${conditionText(target.when, entity)}`,
    )
    .join(', ');
}

/** "as the acting user (their grants)" / "as the system (no grant check)". */
function authorityText(effect: ReferenceEffectModel): string {
  return effect.as === 'system'
    ? 'as the system: no grant check; its validation, state, guards not about the user, rules and limits hold'
    : 'as the acting user: their grants, scope and guards apply';
}

/** One effect on a referenced record: "on Item (item): set status to onLoan, as the acting user: …". */
export function referenceEffectText(model: AppModel, entity: EntityModel, effect: ReferenceEffectModel): string {
  const target = model.entitiesByName[effect.target];
  const on = `on the ${inSentence(entity.fieldsByName[effect.on]?.label ?? effect.on)} (${code(effect.on)})`;
  let what: string;
  if (effect.kind === 'transition') {
    const label = target?.workflow?.transitions.find((t) => t.name === effect.transition)?.label ?? effect.transition;
    what = `take ${label} (${code(effect.transition)})`;
  } else if (effect.to === null) what = `clear ${code(effect.set)}`;
  else if (effect.to === 'actor') what = `set ${code(effect.set)} to the acting user`;
  else if (effect.to === 'now') what = `set ${code(effect.set)} to the time of the write`;
  else what = `set ${code(effect.set)} to ${String(effect.to)}`;
  return `${on}: ${what}, ${authorityText(effect)}`;
}

/** What the same transaction does besides the write itself: refused together, nothing saved. */
const SAME_TRANSACTION =
  'Effects on referenced records happen in the same transaction as the write: a refusal of one refuses the whole write, with its error, and nothing is saved. Both records get a history entry, the referenced one naming the cause.';

/** Point 4's table of the effects creating a record has (`onCreate`); nothing when no entity has any. */
export function createEffectBlocks(model: AppModel): DocBlock[] {
  const rows = model.entities.flatMap((entity) =>
    entity.onCreate.map((effect) => [code(entity.name), referenceEffectText(model, entity, effect)]),
  );
  if (rows.length === 0) return [];
  return [
    { kind: 'heading', text: 'Effects of creating a record' },
    { kind: 'table', columns: ['Entity', 'Effect'], rows },
    { kind: 'paragraph', text: SAME_TRANSACTION },
  ];
}

/** The sentence after a workflow's table when one of its transitions has effects on referenced records. */
export function referenceEffectsNote(workflow: WorkflowModel): DocBlock[] {
  return workflow.transitions.some((t) => t.referenceEffects.length > 0) ? [{ kind: 'paragraph', text: SAME_TRANSACTION }] : [];
}
