import { SYSTEM_COLUMNS } from '../build';
import type { AppModel, EntityModel } from '../model';
import { indefinite, inSentence } from '../naming';
import { declaredValue } from '../own-names';
import type { RelatedModel } from '../screens/detail-model';
import { code } from './text';
import { writtenOnlyByCalls } from '../../access/policy';

/**
 * What a detail page shows of related records, section by section, in words: exactly what
 * src/server/related-sections.ts and the page render.
 */
export function relatedTexts(model: AppModel, entity: EntityModel): string[] {
  return entity.details.related.map((section) => sectionText(model, entity, section));
}

function sectionText(model: AppModel, parent: EntityModel, section: RelatedModel): string {
  const related = declaredValue(model.entitiesByName, section.entity, 'entity');
  const one = indefinite(related.label);
  const by = declaredValue(related.fieldsByName, section.via, 'field').label;
  const parts = [
    `related "${section.label}" (${inSentence(related.pluralLabel)} whose ${by} is this one, to viewers who may list them, with the count they may see): ${
      section.display === 'thread'
        ? `a thread, ${orderText(related, section.sort)}, each with its author (where the viewer may see who created it, else "Someone") and time${section.body ? ` and its ${declaredValue(related.fieldsByName, section.body, 'field').label}` : ''}${badgesText(related, section)}`
        : `a table of ${section.columns.map((c) => columnLabel(related, c)).join(', ')}, ${orderText(related, section.sort)}`
    }, ${section.pageSize} per page (${code(`?${section.param}=<cursor>`)})`,
  ];
  // Records only calls write are never added from a page.
  if (section.add && !writtenOnlyByCalls(related)) {
    const box = section.display === 'thread' ? 'a reply box' : `a form adding ${one}`;
    const finals = parent.workflow?.states.filter((s) => s.final).map((s) => s.label) ?? [];
    parts.push(
      `${box} for viewers who may create ${one} whose ${by} is this one (their create scope with this record in it)${finals.length > 0 && !section.addWhenFinal ? `, not while ${finals.join(' or ')}` : ''}`,
    );
  } else {
    parts.push(`none can be added here`);
  }
  const auto = Object.entries(section.transitions).map(([who, names]) => {
    const [first, ...others] = names.map((name) => `"${transitionLabel(parent, name)}"`);
    return others.length === 0
      ? `by ${whoText(parent, who)} takes ${first} when available (no button of its own)`
      : `by ${whoText(parent, who)} takes the first available of ${[first, ...others].join(', ')} (${first} has no button of its own)`;
  });
  if (auto.length > 0) {
    parts.push(`${one} ${auto.join('; ')}`);
    parts.push('where none is available to the one replying, the reply is saved all the same and the box says so beforehand, with why');
  }
  if (section.replyWith.length > 0)
    parts.push(
      `beside the reply: ${section.replyWith.map((name) => `"Reply and ${inSentence(transitionLabel(parent, name))}"`).join(', ')}, when the viewer may take it (both saved or neither)`,
    );
  if (section.display === 'thread') parts.push(conversationText(parent, related, section));
  return parts.join('; ');
}

/** The page of a record with a thread (src/ui/record/conversation-layout.tsx) and its reply box's modes. */
function conversationText(parent: EntityModel, related: EntityModel, section: RelatedModel): string {
  const counterpart = Object.keys(section.transitions).find((who) => parent.fieldsByName[who]?.type === 'user');
  const marker = section.badges.map((name) => related.fieldsByName[name]).find((field) => field?.type === 'boolean');
  return [
    `the page reads as a conversation: long fields and the thread lead, the workflow${counterpart ? `, the ${inSentence(parent.fieldsByName[counterpart]!.label)} with up to five of their other ${inSentence(parent.pluralLabel)} not in a final state` : ''} and the other fields beside it (on a phone: the thread, the workflow, then the fields folded)`,
    ...(marker
      ? [
          `the reply box has two modes for viewers who may set ${marker.label}: "Reply" and "${marker.label} note", the note marked while written and its buttons saying so`,
        ]
      : []),
  ].join('; ');
}

function orderText(entity: EntityModel, sort: string): string {
  const descending = sort.startsWith('-');
  const name = sort.replace(/^-/, '');
  if (name === 'createdAt') return descending ? 'newest first' : 'oldest first';
  return `by ${columnLabel(entity, name)}, ${descending ? 'descending' : 'ascending'}`;
}

function badgesText(entity: EntityModel, section: RelatedModel): string {
  if (section.badges.length === 0) return '';
  return `, marked "${section.badges.map((b) => declaredValue(entity.fieldsByName, b, 'field').label).join('", "')}" when true`;
}

function whoText(parent: EntityModel, who: string): string {
  const field = parent.fieldsByName[who];
  return field ? `its ${inSentence(field.label)}` : `a user with the role ${who}`;
}

function transitionLabel(parent: EntityModel, name: string): string {
  return parent.workflow?.transitions.find((t) => t.name === name)?.label ?? name;
}

function columnLabel(entity: EntityModel, name: string): string {
  if (entity.workflow && name === entity.workflow.field) return 'State';
  return entity.fieldsByName[name]?.label ?? SYSTEM_COLUMNS.find((c) => c.name === name)?.label ?? name;
}
