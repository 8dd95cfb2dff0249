import { queryableColumns } from './conditions';
import {
  at,
  describeValue,
  isInteger,
  isRecord,
  isString,
  quoteList,
  type EntityInfo,
  type Issues,
  type Rec,
  type Symbols,
} from './context';
import { beforeFirst } from '../naming';
import { MAX_PAGE_SIZE } from '../page-size';
import { refusePublicRole } from './public';
import { userFields } from './symbols';

const DETAIL_KEYS = ['related'];
const RELATED_KEYS = ['via', 'label', 'thread', 'columns', 'sort', 'pageSize', 'add', 'addWhenFinal', 'badges', 'transitions', 'replyWith'];

/** Checks `screens.details`: per entity, the sections of related records its detail page shows. */
export function checkDetails(screens: Rec, symbols: Symbols, issues: Issues): void {
  if (screens.details === undefined || !issues.record(screens.details, 'screens.details', 'details')) return;
  for (const [name, detail] of Object.entries(screens.details)) {
    const path = at('screens.details', name);
    const entity = symbols.entities.get(name);
    if (!entity) issues.add(path, `unknown entity "${name}" (entities: ${quoteList(symbols.entities.keys())})`);
    else if (issues.record(detail, path, 'a detail screen')) {
      issues.unknownKeys(detail, DETAIL_KEYS, path, 'a detail screen');
      if (detail.related !== undefined && issues.record(detail.related, at(path, 'related'), 'related'))
        checkRelated(detail.related, entity, at(path, 'related'), symbols, issues);
    }
  }
}

/** The reference fields of `entity` pointing at `target`. */
function referencesTo(entity: EntityInfo, target: string): string[] {
  return [...entity.fields].filter(([, field]) => field.type === 'reference' && field.to === target).map(([name]) => name);
}

function checkRelated(related: Rec, parent: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  const shown = new Map<string, string>();
  for (const [key, section] of Object.entries(related)) {
    const sectionPath = at(path, key);
    const name = beforeFirst(key, '.');
    const [, keyVia, ...rest] = key.split('.');
    const entity = symbols.entities.get(name);
    if (!entity || rest.length > 0) {
      issues.add(
        sectionPath,
        `unknown entity "${name}": sections are keyed by entity name, or "entity.field" (entities: ${quoteList(symbols.entities.keys())})`,
      );
      continue;
    }
    if (!issues.record(section, sectionPath, 'a related section')) continue;
    issues.unknownKeys(section, RELATED_KEYS, sectionPath, 'a related section');
    const via = resolveVia(section, entity, parent, keyVia, sectionPath, issues);
    if (via === null) continue;
    const same = shown.get(`${name}.${via}`);
    if (same !== undefined) issues.add(sectionPath, `"${same}" already shows ${name} records by ${via}`);
    shown.set(`${name}.${via}`, key);
    checkSection(section, entity, parent, sectionPath, symbols, issues);
  }
}

/** The reference field the section follows, or null when it is missing, wrong or ambiguous (reported). */
function resolveVia(
  section: Rec,
  entity: EntityInfo,
  parent: EntityInfo,
  keyVia: string | undefined,
  path: string,
  issues: Issues,
): string | null {
  const references = referencesTo(entity, parent.name);
  const [first, second] = references;
  if (first === undefined) {
    issues.add(path, `${entity.name} has no reference field to ${parent.name}, so none of its records relate to one`);
    return null;
  }
  const given = section.via ?? keyVia;
  if (given === undefined) {
    if (second === undefined) return first;
    issues.add(path, `${entity.name} has several references to ${parent.name} (${quoteList(references)}): name one with "via"`);
    return null;
  }
  const viaPath = section.via !== undefined ? at(path, 'via') : path;
  if (!isString(given) || !references.includes(given)) {
    issues.add(viaPath, `${describeValue(given)} is not a reference field of ${entity.name} to ${parent.name} (${quoteList(references)})`);
    return null;
  }
  if (section.via !== undefined && keyVia !== undefined && keyVia !== section.via)
    issues.add(viaPath, `the key names "${keyVia}" but via names "${String(section.via)}"`);
  return given;
}

function checkSection(section: Rec, entity: EntityInfo, parent: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  issues.optionalString(section, 'label', path);
  for (const key of ['thread', 'add', 'addWhenFinal']) issues.optionalBoolean(section, key, path);
  const columns = queryableColumns(entity);
  if (section.columns !== undefined) {
    const names = issues.stringList(section.columns, at(path, 'columns'));
    names.forEach((name, index) => {
      if (!columns.has(name)) issues.add(at(at(path, 'columns'), index), `unknown column "${name}" of ${entity.name}`);
    });
    issues.duplicates(names, at(path, 'columns'), 'column');
    if (Array.isArray(section.columns) && section.columns.length === 0)
      issues.add(at(path, 'columns'), 'a table needs at least one column');
  }
  if (section.sort !== undefined) {
    const sort = section.sort;
    if (!isString(sort)) issues.add(at(path, 'sort'), `must be a column name, "-" first for descending, got ${describeValue(sort)}`);
    else if (!columns.has(sort.replace(/^-/, '')))
      issues.add(at(path, 'sort'), `unknown column "${sort.replace(/^-/, '')}" of ${entity.name}`);
  }
  const pageSize = section.pageSize;
  if (pageSize !== undefined && (!isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)) {
    issues.add(at(path, 'pageSize'), `must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${describeValue(pageSize)}`);
  }
  if (section.badges !== undefined) {
    const names = issues.stringList(section.badges, at(path, 'badges'));
    names.forEach((name, index) => {
      if (entity.fields.get(name)?.type !== 'boolean')
        issues.add(
          at(at(path, 'badges'), index),
          `"${name}" is not a boolean field of ${entity.name}: a badge marks the items where it is true`,
        );
    });
  }
  if (section.thread === true && ![...entity.fields.values()].some((f) => f.type === 'markdown' || f.type === 'text')) {
    issues.add(at(path, 'thread'), `a thread shows each item's text: ${entity.name} has no markdown or text field`);
  }
  if (section.transitions !== undefined) checkReplyTransitions(section.transitions, parent, at(path, 'transitions'), symbols, issues);
  if (section.replyWith !== undefined) {
    const names = issues.stringList(section.replyWith, at(path, 'replyWith'));
    if (section.thread !== true)
      issues.add(at(path, 'replyWith'), 'only a thread has a reply box to offer transitions beside (set thread: true)');
    names.forEach((name, index) => checkTransitionName(name, parent, at(at(path, 'replyWith'), index), issues));
    issues.duplicates(names, at(path, 'replyWith'), 'transition');
  }
}

/** `{ <user field of the parent or role>: <transition of the parent> | [<transition>, ...] }`. */
function checkReplyTransitions(transitions: unknown, parent: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  if (!isRecord(transitions)) {
    issues.add(
      path,
      `must be an object of { <user field or role>: <transition> or [<transition>, ...] }, got ${describeValue(transitions)}`,
    );
    return;
  }
  const users = userFields(parent);
  for (const [who, name] of Object.entries(transitions)) {
    if (refusePublicRole(who, at(path, who), issues, 'reply or take transitions')) continue;
    if (!users.includes(who) && !symbols.roles.has(who)) {
      issues.add(
        at(path, who),
        `"${who}" is neither a user field of ${parent.name} (${quoteList(users)}) nor a role (${quoteList(symbols.roles)})`,
      );
    }
    if (!Array.isArray(name)) {
      checkTransitionName(name, parent, at(path, who), issues);
      continue;
    }
    const names = issues.stringList(name, at(path, who));
    if (names.length === 0) issues.add(at(path, who), 'must name at least one transition');
    names.forEach((one, index) => checkTransitionName(one, parent, at(at(path, who), index), issues));
    issues.duplicates(names, at(path, who), 'transition');
  }
}

function checkTransitionName(name: unknown, parent: EntityInfo, path: string, issues: Issues): void {
  if (!parent.workflow) issues.add(path, `${parent.name} has no workflow, so a reply cannot take a transition`);
  else if (!isString(name) || !parent.workflow.transitions.includes(name)) {
    issues.add(
      path,
      `unknown transition ${describeValue(name)} of ${parent.name} (transitions: ${quoteList(parent.workflow.transitions)})`,
    );
  }
}
