import type { AppModel, EntityModel } from '@/engine/spec/model';
import { sectionsShowing } from '@/engine/spec/screens/details';
import { guardCodes } from '@/engine/workflow/guards';
import { inSentence } from '@/engine/spec/naming';

/**
 * What the final states of workflows and the related sections of detail pages mean for the
 * generated create and update operations: extra refusals and what else a create does.
 */

/** The spec's own codes a transition may be refused with: its guard's and its owners' windows'. */
function transitionCodes(entity: EntityModel, name: string): string[] {
  const transition = entity.workflow?.transitions.find((t) => t.name === name);
  if (!transition) return [];
  const owners = transition.allow.flatMap((a) => (typeof a === 'object' && a.error ? [a.error] : []));
  return [...guardCodes(transition), ...owners];
}

function finalLabels(entity: EntityModel): string[] {
  return entity.workflow?.states.filter((s) => s.final).map((s) => s.label) ?? [];
}

/** An update of a record in a final state is refused with the workflow's code. */
export function updateFinalNote(entity: EntityModel): { description: string; codes: string[] } | null {
  const finals = finalLabels(entity);
  if (!entity.workflow || finals.length === 0) return null;
  return {
    description: `${entity.label} records in a final state (${finals.join(', ')}) are frozen: a change is refused with ${entity.workflow.finalError}.`,
    codes: [entity.workflow.finalError],
  };
}

/**
 * Creating a record shown as related on another entity's page (a comment under its ticket): the
 * record its reference points at must not be in a final state (unless the page allows it), and a
 * reply by the people the section names takes their transition in the same transaction.
 */
export function createRelatedNote(model: AppModel, entity: EntityModel): { description: string; codes: string[] } | null {
  const sentences: string[] = [];
  const codes: string[] = [];
  for (const field of entity.fields) {
    if (field.type !== 'reference') continue;
    const sections = sectionsShowing(model.entities, entity.name, field.name);
    const parent = sections[0]?.parent;
    if (!parent?.workflow) continue;
    const one = inSentence(parent.label);
    const finals = finalLabels(parent);
    if (finals.length > 0 && !sections.some((s) => s.section.addWhenFinal)) {
      sentences.push(`Refused with ${parent.workflow.finalError} when its ${inSentence(field.label)} is ${finals.join(' or ')}.`);
      codes.push(parent.workflow.finalError);
    }
    for (const { section } of sections) {
      for (const [who, names] of Object.entries(section.transitions)) {
        const labels = names.map((name) => `"${parent.workflow?.transitions.find((t) => t.name === name)?.label ?? name}"`);
        const by = parent.fieldsByName[who] ? `the ${one}'s ${inSentence(parent.fieldsByName[who].label)}` : `a user with the role ${who}`;
        sentences.push(
          labels.length === 1
            ? `Created by ${by}, it also takes the ${one}'s ${labels[0]} transition in the same transaction, when that is available to them.`
            : `Created by ${by}, it also takes the first of the ${one}'s ${labels.join(', ')} transitions available to them, in the same transaction.`,
        );
      }
      if (section.replyWith.length > 0) {
        sentences.push(
          `The parameter replyWith (${section.replyWith.join(' or ')}) takes that ${one} transition instead, in the same transaction: a refusal saves neither.`,
        );
        codes.push('TRANSITION_NOT_ALLOWED', ...section.replyWith.flatMap((name) => transitionCodes(parent, name)));
      }
    }
  }
  return sentences.length === 0 ? null : { description: sentences.join(' '), codes };
}

/** The transitions a create may take on the record its reference points at (`?replyWith=`), as reply boxes offer them. */
export function replyWithChoices(model: AppModel, entity: EntityModel): string[] {
  const choices = entity.fields
    .filter((f) => f.type === 'reference')
    .flatMap((f) => sectionsShowing(model.entities, entity.name, f.name).flatMap(({ section }) => section.replyWith));
  return [...new Set(choices)];
}
