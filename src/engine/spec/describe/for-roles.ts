import { SYSTEM_COLUMNS } from '../build';
import type { DocBlock } from '../document';
import type { AppModel, EntityModel, RoleListModel, WorkflowModel } from '../model';
import { code } from './text';

/**
 * What the spec chooses per role, in words: the purpose's summary, a role's own list, a state's
 * words (screens/for-roles.ts applies them). A user whose every role has a choice sees the first.
 */

const RULE =
  'a user whose every role has its own sees the first of them, in the spec’s order; one holding any other role sees the general one';

/** "For customer: …" paragraphs after the purpose's summary. */
export function purposeRoleBlocks(model: AppModel): DocBlock[] {
  const entries = Object.entries(model.summaries);
  if (entries.length === 0) return [];
  return [
    { kind: 'heading', text: 'In their own words' },
    { kind: 'paragraph', text: `The home says the purpose to these roles in their own words (${RULE}):` },
    { kind: 'list', items: entries.map(([role, summary]) => `${role}: ${summary}`) },
  ];
}

/** A row per role with its own list of the entity, for the routes table. */
export function roleListRows(entity: EntityModel): string[][] {
  return Object.entries(entity.list.roles).map(([role, list]) => [code(`/${entity.plural}`), `List (${role})`, roleListText(entity, list)]);
}

function roleListText(entity: EntityModel, list: RoleListModel): string {
  const label = (name: string) =>
    entity.workflow?.field === name
      ? 'State'
      : (entity.fieldsByName[name]?.label ?? SYSTEM_COLUMNS.find((c) => c.name === name)?.label ?? name);
  const clocks = entity.fields.filter((f) => f.due && !list.columns.includes(f.name)).map((f) => f.label);
  return [
    `as the list, for this role (${RULE}), with columns ${list.columns.map(label).join(', ')}`,
    `sorted by ${label(list.sort.field)}, ${list.sort.direction === 'desc' ? 'descending' : 'ascending'}`,
    `filters ${list.filters.length > 0 ? list.filters.map(label).join(', ') : 'none'}`,
    ...(list.bulk ? [] : ['no row selection and no bulk panel']),
    ...(list.import ? [] : [`no CSV import (the import page answers 403 to them)`]),
    ...(clocks.length > 0 ? [`${clocks.join(', ')} (a due time the list leaves out) not shown on the record page either`] : []),
  ].join('; ');
}

/** "customer reads Pending as “Waiting for your reply”: …" under the states table. */
export function stateWordsBlocks(workflow: WorkflowModel): DocBlock[] {
  const items = workflow.states.flatMap((state) =>
    Object.entries(state.roles).map(
      ([role, words]) => `${role} reads ${state.label} as “${words.label}”${words.description ? `: ${words.description}` : ''}`,
    ),
  );
  if (items.length === 0) return [];
  return [
    { kind: 'paragraph', text: `Some roles read states in their own words on pages (${RULE}); the API carries the state’s name:` },
    { kind: 'list', items },
  ];
}
