import { targetStates } from '@/engine/workflow/targets';
import type { EntityModel, StateModel, WorkflowModel } from '@/engine/spec/model';
import { capitalize, inSentence, withArticle } from '@/engine/spec/naming';
import type { ConfirmQuestion } from '../confirm/confirm-input';

/*
 * A transition into a final state cannot be undone: the record is frozen there (the workflow's
 * finalError refuses every change). So the pages ask before taking one, in the same words
 * wherever it is offered (the detail page, a list's bulk toolbar, the command palette through
 * the detail page's form), and the server actions require the answer. The words come from the
 * spec's labels, so every spec reads right without saying anything more.
 */

/**
 * The final state a transition may lead to, or null when every state it may enter can still
 * change. A target chosen by the data asks whenever one of its states is final: better one
 * question too many than a record frozen unasked.
 */
export function finalTarget(workflow: WorkflowModel, transitionName: string): StateModel | null {
  const transition = workflow.transitions.find((t) => t.name === transitionName);
  const states = transition ? targetStates(transition) : [];
  return workflow.states.find((s) => s.final && states.includes(s.name)) ?? null;
}

/** "A closed ticket can no longer be changed." */
function frozenText(entity: EntityModel, state: StateModel): string {
  return `${capitalize(withArticle(`${inSentence(state.label)} ${inSentence(entity.label)}`))} can no longer be changed.`;
}

/** The transition's label and the final state it leads to, or null when it needs no confirmation. */
function finalTransition(entity: EntityModel, transitionName: string): { label: string; state: StateModel } | null {
  const transition = entity.workflow?.transitions.find((t) => t.name === transitionName);
  const state = transition ? finalTarget(entity.workflow!, transitionName) : null;
  return transition && state ? { label: transition.label, state } : null;
}

/** "Close ticket #12?" with what it means; null when the transition needs no confirmation. */
export function finalTransitionQuestion(entity: EntityModel, transitionName: string, recordId: number): ConfirmQuestion | null {
  const final = finalTransition(entity, transitionName);
  if (!final) return null;
  return {
    title: `${final.label} ${inSentence(entity.label)} #${recordId}?`,
    description: frozenText(entity, final.state),
    confirmLabel: final.label,
  };
}

/** "Close the selected tickets?" for a list's bulk toolbar; null when the transition needs no confirmation. */
export function bulkFinalTransitionQuestion(entity: EntityModel, transitionName: string): ConfirmQuestion | null {
  const final = finalTransition(entity, transitionName);
  if (!final) return null;
  return {
    title: `${final.label} the selected ${inSentence(entity.pluralLabel)}?`,
    description: frozenText(entity, final.state),
    confirmLabel: final.label,
  };
}
