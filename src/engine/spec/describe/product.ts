import { isBulkSettable } from '../../ops/bulk';
import { autoParagraph, autoWhoText } from './auto';
import { createsAnyRecord, grantsFor } from '../../access/grants';
import { ADMIN_ROLE, fieldWrittenOnlyByCalls, writtenOnlyByCalls } from '../../access/policy';
import { PUBLIC_ROLE } from '../../access/visitor';
import { resolveLimits } from '../../limits';
import { SYSTEM_COLUMNS } from '../build';
import type { DocBlock } from '../document';
import { decimalDigits, moneyCurrency } from '../field-numbers';
import { formatNumber } from '../../numbers/format';
import type { AppModel, BoardModel, EntityModel, FieldModel, TransitionModel, WorkflowModel } from '../model';
import { BOARD_CARDS } from '../page-size';
import { targetStates } from '../../workflow/targets';
import { createEffectBlocks, referenceEffectsNote, referenceEffectText, targetText } from './consequences';
import { MAX_REFERENCES } from '../join-fields';
import { indefinite, inSentence } from '../naming';
import { declaredValue, ownValue } from '../own-names';
import { titleRule } from '../title-rule';
import type { EffectSpec, EnumField, FieldSpec } from '../types';
import { actorText, amountText, code, NONE } from './text';
import { documentationText, navigationText } from './navigation';
import { dueFilterText, dueText } from './due';
import { computedNote } from './computed';
import { derivedText } from './derived';
import { fileFieldText, filesParagraph } from './files';
import { samplesText } from './samples';
import { guardTexts } from './guards';
import { homeBlocks } from './home';
import { presentationBlocks } from './presentation';
import { relatedTexts } from './related';
import { routeBlocks, routeNavigationItems } from './routes';
import { purposeRoleBlocks, roleListRows, stateWordsBlocks } from './for-roles';

/** Points 1 to 4: what the product is for, its screens, its data and its workflows. */

export type PointBlocks = readonly DocBlock[] | null;

// ---------------------------------------------------------------- 1. purpose and audience

export function purposeBlocks(model: AppModel): PointBlocks {
  const purpose = model.spec.purpose;
  if (!purpose) return null;
  const blocks: DocBlock[] = [{ kind: 'paragraph', text: `Title: ${purpose.title}` }];
  if (purpose.summary) blocks.push({ kind: 'paragraph', text: purpose.summary });
  if (purpose.audience && purpose.audience.length > 0) {
    blocks.push({ kind: 'heading', text: 'Audience' }, { kind: 'list', items: purpose.audience });
  }
  blocks.push(...purposeRoleBlocks(model));
  blocks.push({ kind: 'paragraph', text: timeZoneText(model) }, { kind: 'paragraph', text: numbersText(model) });
  return blocks;
}

/** Where times are read and typed (src/server/viewer-zone.ts); API and CSV are not concerned. */
function timeZoneText(model: AppModel): string {
  return `Times are shown in ${model.timeZone} unless a user chooses another zone on their account page or their browser says its own; they are typed in that same zone, stored in UTC, and the API and CSV exports write them in ISO 8601 with their offset. Dates stay calendar dates.`;
}

/** How pages write numbers and amounts (src/engine/numbers/format.ts); API and CSV carry them plain. */
function numbersText(model: AppModel): string {
  const currencies = [...new Set(model.entities.flatMap((e) => e.fields.flatMap((f) => (f.currency ? [f.currency] : []))))];
  const amounts = currencies.map((currency) => formatNumber('1234.5', { currency }, model.locale));
  return `Numbers are shown the ${model.locale} way (${formatNumber('1234.5', {}, model.locale)}${amounts.length > 0 ? `; amounts ${amounts.join(', ')}` : ''}); forms take plain numbers, and the API and CSV files carry them as stored (1234.50).`;
}

// ---------------------------------------------------------------- 2. screens and routes

/** What every spec's pages do when records change (src/engine/live, src/ui/live, src/server/live). */
function livePagesText(model: AppModel): string {
  const limits = resolveLimits(model);
  return (
    'Pages follow the data: when a record the user may read changes, whoever changed it, the lists, detail pages (with their related records), the home and dashboards showing it refresh in place within about a second, keeping what the user is typing; an edit form instead says that its record was changed by someone else and offers to show what changed. Nothing the user may not read is announced. ' +
    `The app's tabs in one browser share one live connection; a server holds at most ${limits.liveStreamsPerSession} per session (${code('liveStreamsPerSession')}) and ${limits.liveStreamsPerUser} per user (${code('liveStreamsPerUser')}), and refuses more with ${code('RATE_LIMITED')}: the page then stays as it is and tries again later.`
  );
}

/** How many rows one import may hold, for whom (src/engine/ops/rows-cap.ts). */
function importCapText(model: AppModel, entity: EntityModel): string {
  const limits = resolveLimits(model);
  const scoped = Math.min(limits.importMaxRowsScoped, limits.importMaxRows);
  const roles = [ADMIN_ROLE, ...Object.keys(model.roles).filter((r) => r !== ADMIN_ROLE && r !== PUBLIC_ROLE)];
  const staff = roles.filter((role) => createsAnyRecord(entity, { userId: 0, email: '', name: '', roles: [role] }));
  const others = [...roles, PUBLIC_ROLE].some(
    (role) => !staff.includes(role) && grantsFor(entity, { userId: 0, email: '', name: '', roles: [role] }, 'create').length > 0,
  );
  const rows = (n: number) => `${n.toLocaleString('en-US')} rows`;
  const cap =
    staff.length === 0
      ? `at most ${rows(scoped)} a file (${code('importMaxRowsScoped')})`
      : others
        ? `at most ${rows(limits.importMaxRows)} a file for ${staff.map(code).join(', ')} (who may create any ${inSentence(entity.label)}; ${code('importMaxRows')}), ${rows(scoped)} for the others (${code('importMaxRowsScoped')})`
        : `at most ${rows(limits.importMaxRows)} a file (${code('importMaxRows')})`;
  return `${cap}; a larger file is refused whole`;
}

export function screenBlocks(model: AppModel): PointBlocks {
  const labels = Object.entries(model.labels);
  if (model.entities.length === 0 && labels.length === 0 && model.routes.length === 0) return null;
  const blocks: DocBlock[] = [];
  const navigation = [...routeNavigationItems(model), ...model.navigation.map((e) => `${e.pluralLabel}: ${code(`/${e.plural}`)}`)];
  if (navigation.length > 0)
    blocks.push(
      { kind: 'heading', text: 'Navigation' },
      { kind: 'list', items: navigation },
      { kind: 'paragraph', text: navigationText(model) },
    );
  blocks.push(...homeBlocks(model));
  blocks.push(...routeBlocks(model));
  for (const entity of model.entities) {
    blocks.push(
      { kind: 'heading', text: `${entity.pluralLabel} (${entity.name})` },
      routesTable(model, entity),
      ...presentationBlocks(entity),
    );
  }
  if (labels.length > 0) {
    blocks.push(
      { kind: 'heading', text: 'Labels' },
      { kind: 'table', columns: ['Key', 'Text'], rows: labels.map(([key, text]) => [code(key), text]) },
    );
  }
  blocks.push({ kind: 'paragraph', text: documentationText(model) });
  if (model.entities.length > 0) blocks.push({ kind: 'paragraph', text: livePagesText(model) });
  return blocks;
}

function routesTable(model: AppModel, entity: EntityModel): DocBlock {
  const base = `/${entity.plural}`;
  const one = indefinite(entity.label);
  if (writtenOnlyByCalls(entity)) return callsOnlyRoutesTable(entity);
  const formFields = entity.fields.filter((f) => !f.readOnly && !fieldWrittenOnlyByCalls(entity, f)).map((f) => f.label);
  const newLabel = model.labels[`${entity.name}.new`];
  const finals = entity.workflow?.states.filter((s) => s.final).map((s) => s.label) ?? [];
  const frozen = finals.length > 0 ? `, never while ${finals.join(' or ')}` : '';
  const detail = [
    `One ${inSentence(entity.label)}: every field`,
    ...(entity.workflow
      ? [
          `its state and the transitions the user may take${finals.length > 0 ? ` (one into ${finals.join(' or ')} asks for confirmation first)` : ''}, in a panel shown to users who may take one of them (other than by a reply) in some state`,
        ]
      : []),
    `Edit and Delete only where the user may change or delete this one${finals.length > 0 ? ` (no Edit while ${finals.join(' or ')})` : ''}`,
    'each field the user may update on this one (text, number, money, yes/no, date, time, enum, reference, user) changed in place by its "Change" form, that field alone with the version the user saw; "Assign to me" on a user field whose roles include one of the user\'s and that does not name them',
    ...relatedTexts(model, entity),
  ];
  return {
    kind: 'table',
    columns: ['Route', 'Screen', 'Shows'],
    rows: [
      [code(base), 'List', listText(entity, true)],
      ...roleListRows(entity),
      [code(`${base}/new`), 'New', `Form to create ${one}${newLabel ? ` ("${newLabel}")` : ''}: ${joinOrNone(formFields)}`],
      [code(`${base}/<id>`), 'Detail', detail.join('; ')],
      [
        code(`${base}/<id>/edit`),
        'Edit',
        `Form to change ${one}: ${joinOrNone(formFields)}; the 403 page where the user may not change this one${frozen}`,
      ],
      [
        code(`${base}/export.csv`),
        'Export',
        `The list as the user sees it (its filters, search, sort and columns; every page) as a CSV file: only fields the user may read, values as shown except numbers and amounts, written plain as stored (1234.50), cells that a spreadsheet would run as formulas prefixed with '`,
      ],
      [
        code(`${base}/import`),
        'Import',
        `New ${inSentence(entity.pluralLabel)} from a CSV file whose header names the fields (by label or name), for users who may create them: ${importCapText(model, entity)}; every row checked as if the user created it, each bad row reported by its line (the first 1,000, the others counted); nothing written unless every row passes, or the good rows only when the user chooses (also ${code(`npm run ninefold -- import ${entity.name} <file.csv>`)})`,
      ],
    ],
  };
}

/** An entity only calls write: its pages read it; no form, no delete page, no import. */
function callsOnlyRoutesTable(entity: EntityModel): DocBlock {
  const base = `/${entity.plural}`;
  const finals = entity.workflow?.states.filter((s) => s.final).map((s) => s.label) ?? [];
  const detail = [
    `One ${inSentence(entity.label)}: every field`,
    ...(entity.workflow
      ? [
          `its state and the transitions the user may take${finals.length > 0 ? ` (one into ${finals.join(' or ')} asks for confirmation first)` : ''}`,
        ]
      : []),
    "no Edit or Delete: the spec's calls write it",
  ];
  return {
    kind: 'table',
    columns: ['Route', 'Screen', 'Shows'],
    rows: [
      [code(base), 'List', `${listText(entity, false)}; no New and no Import`],
      [code(`${base}/<id>`), 'Detail', detail.join('; ')],
      [code(`${base}/export.csv`), 'Export', 'The list as the user sees it as a CSV file, as for every entity'],
    ],
  };
}

/** What a list page offers; `peopleWrite` is false for an entity only the spec's calls write (no "Set", no Delete). */
function listText(entity: EntityModel, peopleWrite: boolean): string {
  const { list } = entity;
  const sortLabel = columnLabel(entity, list.sort.field);
  const parts = [
    `${entity.pluralLabel}, ${list.pageSize} per page`,
    `columns ${list.columns.map((c) => columnLabel(entity, c)).join(', ')}`,
    `sorted by ${sortLabel}, ${list.sort.direction === 'desc' ? 'descending' : 'ascending'}`,
    ...entity.fields.filter((f) => f.enumValues).map((f) => `${f.label} sorts in its declared order (${f.enumValues!.join(', ')})`),
    `filters ${joinOrNone(list.filters.map((c) => (entity.fieldsByName[c]?.due ? dueFilterText(entity.fieldsByName[c]) : entity.fieldsByName[c]?.joinTable ? `${columnLabel(entity, c)} (has any of)` : columnLabel(entity, c))))}`,
    'the total count the user may see ("more than N" past a cap; exact at any size, the number the home says, when the list has no search and at most one filter, by the state or by a field that a counts widget without a condition groups by)',
    `the columns shown and their order chosen by the user among those they may read (${code('?columns=')}), the first ones kept where the table is too narrow for all`,
    'the whole state in the address (filters, search, sort, columns, page), which a user may save as a named view',
  ];
  if (entity.searchFields.length > 0) parts.push(`search in ${entity.searchFields.map((f) => columnLabel(entity, f)).join(', ')}`);
  if (list.board) parts.push(boardText(entity, list.board));
  const bulk = bulkText(entity, peopleWrite);
  if (bulk) parts.push(bulk);
  return parts.join('; ');
}

/** The board the list opens as (src/ui/board): its columns, what each adds up, and how a card moves. */
function boardText(entity: EntityModel, board: BoardModel): string {
  const state = entity.workflow && board.field === entity.workflow.field ? entity.workflow : null;
  const labels = board.values.map((v) => state?.states.find((s) => s.name === v)?.label ?? v);
  return [
    `shown first as a board (${code('?view=board')}; the table at ${code('?view=table')}) with a column per ${columnLabel(entity, board.field)}: ${labels.join(', ')}`,
    `each with its count${board.sum ? ` and the sum of ${columnLabel(entity, board.sum)}` : ''} over the records the user may list (filters and search applied) and its first ${BOARD_CARDS} cards, the first list columns on each, the rest one link away`,
    state
      ? 'a card moves (dragged, or by its "Move to" control) by the transition that leads to the column, when the user may take it; a refusal says why and the card stays; a transition that asks for a comment, fields or a confirmation opens the record instead'
      : `a card moves (dragged, or by its "Move to" control) by an update of ${columnLabel(entity, board.field)}, where the user may update the record and that field`,
  ].join('; ');
}

/**
 * The bulk panel of a list, shown once a row is selected: the transitions, "Set <field>" and
 * Delete, each among what the user may do; each row its own change with the version seen.
 */
function bulkText(entity: EntityModel, peopleWrite: boolean): string | null {
  const settable = peopleWrite ? entity.fields.filter((f) => isBulkSettable(entity, f)).map((f) => f.label) : [];
  const actions = [
    ...(entity.workflow ? ['the transitions the user may take (one into a final state asks first)'] : []),
    ...(settable.length > 0 ? [`"Set" one value of ${settable.join(', ')} where the user may change it`] : []),
    ...(peopleWrite ? ['Delete where the user may delete (asks first)'] : []),
  ];
  if (actions.length === 0) return null;
  const api = peopleWrite
    ? `; the same through the API: ${code(`POST /api/v1/${entity.plural}/bulk-update`)} and ${code(`POST /api/v1/${entity.plural}/bulk-delete`)}`
    : '';
  return `on the selected rows (the panel shows once one is ticked): ${actions.join(', ')}; each row changed on its own with the version the user saw, and each refused row reported with why${api}`;
}

function columnLabel(entity: EntityModel, name: string): string {
  if (entity.workflow && name === entity.workflow.field) return 'State';
  return entity.fieldsByName[name]?.label ?? SYSTEM_COLUMNS.find((c) => c.name === name)?.label ?? name;
}

function joinOrNone(items: readonly string[]): string {
  return items.length > 0 ? items.join(', ') : NONE;
}

// ---------------------------------------------------------------- 3. entities and fields

export function entityBlocks(model: AppModel): PointBlocks {
  if (model.entities.length === 0) return null;
  const blocks: DocBlock[] = [
    {
      kind: 'paragraph',
      text: `Every record also has ${SYSTEM_COLUMNS.map((c) => code(c.name)).join(', ')}, kept by the engine.`,
    },
  ];
  const files = filesParagraph(model);
  if (files) blocks.push({ kind: 'paragraph', text: files });
  for (const entity of model.entities) {
    blocks.push({ kind: 'heading', text: `${entity.label} (${entity.name})` });
    const facts = [`Table ${code(entity.table)}`, titleText(model, entity)];
    if (writtenOnlyByCalls(entity)) facts.push("written only by the spec's calls and workflow effects (point 7)");
    if (entity.uniqueTogether.length > 0) {
      facts.push(`unique together: ${entity.uniqueTogether.map((group) => group.join(' + ')).join('; ')}`);
    }
    blocks.push({ kind: 'paragraph', text: `${entity.description ? `${entity.description} ` : ''}${facts.join('; ')}.` });
    blocks.push({
      kind: 'table',
      columns: ['Field', 'Type', 'Required', 'Default', 'Notes'],
      rows: [...entity.fields.map((f) => fieldRow(f, entity)), ...(entity.workflow ? [stateRow(entity.workflow)] : [])],
    });
  }
  return blocks;
}

/** How its records are named in links, headings, pickers and history (spec/title-rule.ts). */
function titleText(model: AppModel, entity: EntityModel): string {
  const rule = titleRule(entity);
  const fallback = `"${entity.label} #<id>"`;
  switch (rule.kind) {
    case 'none':
      return `title field ${NONE} (records are named ${fallback})`;
    case 'value':
      return `title field ${code(rule.field.name)}`;
    case 'user':
      return `title field ${code(rule.field.name)}: a record is named by that user's name (${fallback} when none)`;
    case 'reference': {
      const target = declaredValue(model.entitiesByName, rule.target, 'entity');
      return `title field ${code(rule.field.name)}: a record is named by its ${inSentence(target.label)}'s title, as the user sees that ${inSentence(target.label)} (${fallback} when they may not read it)`;
    }
  }
}

function fieldRow(field: FieldModel, entity: EntityModel): string[] {
  return [code(field.name), typeText(field.spec), field.required ? 'yes' : 'no', defaultText(field), fieldNotes(field, entity)];
}

function stateRow(workflow: WorkflowModel): string[] {
  return [
    code(workflow.field),
    `state: ${workflow.states.map((s) => s.name).join(', ')}`,
    'yes',
    workflow.initial,
    'read-only; changed by the transitions of point 4',
  ];
}

export function typeText(spec: FieldSpec): string {
  switch (spec.type) {
    case 'enum':
      return `enum: ${spec.values.join(', ')}`;
    case 'reference':
      return `reference → ${spec.to}`;
    case 'references':
      return `references → ${spec.to} (many)`;
    case 'users':
      return 'users (many)';
    case 'files':
      return 'files (many)';
    case 'decimal':
      return `decimal(${decimalDigits(spec).precision}, ${decimalDigits(spec).scale})`;
    case 'money':
      return `money (${moneyCurrency(spec)})`;
    case 'text':
      return spec.format ? `text (${spec.format})` : 'text';
    default:
      return spec.type;
  }
}

function defaultText(field: FieldModel): string {
  const d = field.defaultTo;
  if (d === undefined) return '';
  switch (d.kind) {
    case 'actor':
      return 'the signed-in user';
    case 'now':
      return 'the time of creation';
    case 'ownRecord':
      return `the creator's own ${d.entity} (whose ${d.userField} is them), when they have one`;
    case 'value':
      return d.constant ? `${String(d.value)} (constant ${d.constant})` : String(d.value);
  }
}

function fieldNotes(field: FieldModel, entity: EntityModel): string {
  const { spec } = field;
  const notes: string[] = [];
  if (spec.label) notes.push(`label "${spec.label}"`);
  if (field.unique) notes.push('unique');
  if (field.searchable) notes.push('searchable');
  if (field.readOnly) notes.push('read-only');
  if (fieldWrittenOnlyByCalls(entity, field)) notes.push("written only by the spec's calls and workflow effects");
  if (field.due) notes.push(dueText(field, entity));
  if (field.computed) notes.push(computedNote(field, entity));
  if (field.derived) notes.push(derivedText(field, entity));
  if ((spec.type === 'text' || spec.type === 'markdown') && spec.minLength !== undefined) notes.push(`min length ${spec.minLength}`);
  if ((spec.type === 'text' || spec.type === 'markdown') && spec.maxLength !== undefined) notes.push(`max length ${spec.maxLength}`);
  if (spec.type === 'text' && spec.pattern) notes.push(`pattern ${code(spec.pattern)}`);
  if ((spec.type === 'integer' || spec.type === 'decimal' || spec.type === 'money') && spec.min !== undefined)
    notes.push(`min ${amountText(spec.min)}`);
  if ((spec.type === 'integer' || spec.type === 'decimal' || spec.type === 'money') && spec.max !== undefined)
    notes.push(`max ${amountText(spec.max)}`);
  if (spec.type === 'enum' && (spec.labels || spec.colours)) notes.push(enumShownText(spec));
  if (spec.type === 'reference') notes.push(`on delete: ${ON_DELETE_TEXT[spec.onDelete ?? 'restrict']}`);
  if (field.within)
    notes.push(
      `only a ${spec.type === 'reference' ? spec.to : 'record'} whose ${field.within} is the ${entity.name}'s own ${field.within} (when it has one)`,
    );
  if (spec.type === 'references') {
    notes.push(`at most ${spec.maxItems === undefined ? MAX_REFERENCES : amountText(spec.maxItems)}`);
    notes.push(`only the ${spec.to} records the reader may read are shown; a deleted ${spec.to} is taken off`);
    if (field.required) notes.push('at least one');
  }
  if (spec.type === 'users') {
    notes.push(spec.maxItems === undefined ? 'any number' : `at most ${amountText(spec.maxItems)}`);
    if (field.required) notes.push('at least one');
  }
  if (field.files) notes.push(fileFieldText(field, entity));
  if (field.holderRoles) notes.push(`held only by users with the role ${field.holderRoles.join(' or ')}`);
  if (field.samples) notes.push(samplesText(field));
  if (spec.help) notes.push(spec.help);
  return notes.join('; ');
}

/** How people read each value (pages, filters, home, history): "shown as Low, High (orange badge), Urgent (red badge)". */
function enumShownText(spec: EnumField): string {
  const shown = spec.values.map((value) => {
    const colour = ownValue(spec.colours, value);
    return `${ownValue(spec.labels, value) ?? value}${colour ? ` (${colour} badge)` : ''}`;
  });
  return `shown as ${shown.join(', ')}`;
}

const ON_DELETE_TEXT = { restrict: 'refused while referenced', cascade: 'deleted too', setNull: 'emptied' } as const;

// ---------------------------------------------------------------- 4. states and transitions

export function workflowBlocks(model: AppModel): PointBlocks {
  const withWorkflow = model.entities.filter((e) => e.workflow);
  const createEffects = createEffectBlocks(model);
  if (withWorkflow.length === 0 && createEffects.length === 0) return null;
  const workflows = withWorkflow.flatMap((entity) => {
    const workflow = entity.workflow as WorkflowModel;
    return [
      { kind: 'heading', text: `${entity.label} workflow` },
      {
        kind: 'paragraph',
        text: `The state is kept in ${code(workflow.field)}; a new ${inSentence(entity.label)} starts as ${workflow.initial}.${finalText(workflow)}${guardsOrderText(workflow)}`,
      },
      {
        kind: 'table',
        columns: ['State', 'Label', 'Kind', 'Description'],
        rows: workflow.states.map((s) => [
          code(s.name),
          s.label,
          [s.name === workflow.initial ? 'initial' : '', s.final ? 'final' : ''].filter(Boolean).join(', '),
          s.description ?? '',
        ]),
      },
      ...stateWordsBlocks(workflow),
      {
        kind: 'table',
        columns: ['Transition', 'From', 'To', 'Who', 'Requires', 'Effects'],
        rows: workflow.transitions.map((t) => [
          `${t.label} (${code(t.name)})`,
          t.from.join(', '),
          targetText(entity, t),
          [...t.allow.map((a) => actorText(a, entity, t.name)), autoWhoText(t)].filter((who) => who !== null).join(', '),
          requiresText(t.requires, guardTexts(t, entity), t.comment),
          effectsText(model, entity, t),
        ]),
      },
      ...referenceEffectsNote(workflow),
      { kind: 'paragraph', text: WHO_TEXT },
      ...(autoParagraph(workflow) ? [{ kind: 'paragraph' as const, text: autoParagraph(workflow)! }] : []),
      {
        kind: 'workflow',
        states: workflow.states.map(({ name, label, initial, final }) => ({ name, label, initial, final })),
        edges: workflow.transitions.flatMap((t) => t.from.flatMap((from) => targetStates(t).map((to) => ({ from, to, label: t.label })))),
        mermaid: stateDiagram(workflow),
      },
    ] satisfies DocBlock[];
  });
  return [...workflows, ...createEffects];
}

/** The Effects column: own fields set, then effects on referenced records with their authority. */
function effectsText(model: AppModel, entity: EntityModel, transition: TransitionModel): string {
  const texts = [...transition.effects.map(effectText), ...transition.referenceEffects.map((e) => referenceEffectText(model, entity, e))];
  return texts.length > 0 ? texts.join('; ') : NONE;
}

/** How the Who column and the grants of point 6 combine. */
const WHO_TEXT =
  'Who takes a transition: the roles and owners (the user a field of the record names, while its condition holds) in the Who column; ' +
  "a role's grant for a transition (point 6) says on which records, and lets no role the column leaves out take it: both must hold. " +
  'A transition is taken only on a record the user may read.';

/** What a final state means: the record is frozen (deletes follow the permissions only). */
function finalText(workflow: WorkflowModel): string {
  const finals = workflow.states.filter((s) => s.final).map((s) => s.name);
  if (finals.length === 0) return '';
  return ` A final state (${finals.join(', ')}) freezes the record: changes are refused with ${code(workflow.finalError)}, and related records are added only where the detail page allows it; deleting follows the permissions only. The pages ask for confirmation before a transition into a final state (on the detail page and in a list's bulk toolbar); the API takes it as asked.`;
}

/** How several guards of one transition are checked, where a transition has them. */
function guardsOrderText(workflow: WorkflowModel): string {
  return workflow.transitions.some((t) => t.guards.length > 1)
    ? ' Guards are checked in the order listed: the first that fails refuses the transition, with its code and message.'
    : '';
}

function requiresText(requires: readonly string[], guards: readonly string[], comment: 'required' | 'optional' | undefined): string {
  const parts = [...requires, ...guards];
  if (comment === 'required') parts.push('a comment');
  return parts.length > 0 ? parts.join('; ') : NONE;
}

function effectText(effect: EffectSpec): string {
  if (effect.to === null) return `clear ${effect.set}`;
  if (effect.to === 'actor') return `set ${effect.set} to the acting user`;
  return `set ${effect.set} to ${String(effect.to)}`;
}

export function stateDiagram(workflow: WorkflowModel): string {
  const label = (text: string) => text.replace(/[:;#\n]/g, ' ').trim();
  const lines = ['stateDiagram-v2', `    [*] --> ${workflow.initial}`];
  for (const transition of workflow.transitions) {
    for (const from of transition.from)
      for (const to of targetStates(transition)) lines.push(`    ${from} --> ${to}: ${label(transition.label)}`);
  }
  for (const state of workflow.states) if (state.final) lines.push(`    ${state.name} --> [*]`);
  return lines.join('\n');
}
