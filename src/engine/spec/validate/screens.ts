import { MAX_PAGE_SIZE } from '../page-size';
import { withArticle } from '../naming';
import { queryableColumns } from './conditions';
import { checkDetails } from './details';
import { checkDocumentation } from './documentation';
import { checkPresentation } from './presentation';
import { checkHome } from './home';
import { checkRoutes } from './routes';
import { checkTimeZone } from './time-zone';
import { checkLocaleAndCurrency } from './money';
import { checkRoleKeyed } from './role-keyed';
import { at, describeValue, isInteger, isString, quoteList, type EntityInfo, type Issues, type Rec, type Symbols } from './context';

const PURPOSE_KEYS = ['title', 'summary', 'audience', 'timeZone', 'locale', 'currency', 'roles'];
const SCREENS_KEYS = ['navigation', 'lists', 'details', 'home', 'routes', 'labels', 'documentation', 'presentation'];
const LIST_KEYS = ['columns', 'sort', 'filters', 'pageSize', 'board', 'sum', 'roles'];
const ROLE_LIST_KEYS = ['columns', 'sort', 'filters', 'bulk', 'import'];
/** What a board may sum under each column. */
const SUMMABLE = ['integer', 'decimal', 'money'];

/** Point 1: a title, an optional summary, audience, time zone, locale, currency and summaries per role. */
export function checkPurpose(spec: Rec, symbols: Symbols, issues: Issues): void {
  const purpose = spec.purpose;
  if (purpose === undefined || !issues.record(purpose, 'purpose', 'purpose')) return;
  issues.unknownKeys(purpose, PURPOSE_KEYS, 'purpose', 'purpose');
  issues.requiredText(purpose, 'title', 'purpose');
  issues.optionalString(purpose, 'summary', 'purpose');
  if (purpose.audience !== undefined) issues.stringList(purpose.audience, at('purpose', 'audience'));
  checkTimeZone(purpose, issues);
  checkLocaleAndCurrency(purpose, issues);
  // The summary is shown on the home, which visitors never open.
  if (purpose.roles !== undefined)
    checkRoleKeyed(purpose.roles, at('purpose', 'roles'), "a role's purpose", { symbols, issues, visitors: false }, (words, place) => {
      issues.unknownKeys(words, ['summary'], place, "a role's purpose");
      issues.requiredText(words, 'summary', place);
    });
}

/** Point 2: navigation, list screens and UI labels. */
export function checkScreens(spec: Rec, symbols: Symbols, issues: Issues): void {
  const screens = spec.screens;
  if (screens === undefined || !issues.record(screens, 'screens', 'screens')) return;
  issues.unknownKeys(screens, SCREENS_KEYS, 'screens', 'screens');
  if (screens.navigation !== undefined) checkNavigation(screens.navigation, symbols, issues);
  if (screens.lists !== undefined && issues.record(screens.lists, 'screens.lists', 'lists')) {
    for (const [name, list] of Object.entries(screens.lists)) {
      const path = at('screens.lists', name);
      const entity = symbols.entities.get(name);
      if (!entity) issues.add(path, `unknown entity "${name}" (entities: ${quoteList(symbols.entities.keys())})`);
      else if (issues.record(list, path, 'a list screen')) checkList(list, entity, path, symbols, issues);
    }
  }
  checkDetails(screens, symbols, issues);
  checkHome(screens, symbols, issues);
  checkRoutes(spec, screens, symbols, issues);
  checkDocumentation(screens, symbols, issues);
  checkPresentation(screens, symbols, issues);
  if (screens.labels !== undefined && issues.record(screens.labels, 'screens.labels', 'labels')) {
    for (const key of Object.keys(screens.labels)) issues.optionalString(screens.labels, key, 'screens.labels');
  }
}

function checkNavigation(navigation: unknown, symbols: Symbols, issues: Issues): void {
  const names = issues.stringList(navigation, 'screens.navigation');
  names.forEach((name, index) => {
    if (!symbols.entities.has(name)) issues.add(at('screens.navigation', index), `unknown entity "${name}"`);
  });
  issues.duplicates(names, 'screens.navigation', 'entity');
}

function checkList(list: Rec, entity: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  issues.unknownKeys(list, LIST_KEYS, path, 'a list screen');
  const columns = queryableColumns(entity);
  checkShown(list, entity, path, columns, issues);
  const pageSize = list.pageSize;
  if (pageSize !== undefined && (!isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)) {
    issues.add(at(path, 'pageSize'), `must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${describeValue(pageSize)}`);
  }
  checkBoard(list, entity, path, columns, issues);
  if (list.roles !== undefined)
    checkRoleKeyed(list.roles, at(path, 'roles'), "a role's list", { symbols, issues, visitors: true }, (own, place) => {
      issues.unknownKeys(own, ROLE_LIST_KEYS, place, "a role's list");
      checkShown(own, entity, place, columns, issues);
      for (const key of ['bulk', 'import']) issues.optionalBoolean(own, key, place);
    });
}

/** The columns, filters and sort of a list, or of a role's own list. */
function checkShown(list: Rec, entity: EntityInfo, path: string, columns: ReadonlyMap<string, string>, issues: Issues): void {
  const checkNames = (key: 'columns' | 'filters') => {
    if (list[key] === undefined) return;
    const names = issues.stringList(list[key], at(path, key));
    names.forEach((name, index) => {
      if (!columns.has(name)) issues.add(at(at(path, key), index), unknownColumn(name, entity));
    });
    issues.duplicates(names, at(path, key), 'column');
  };
  checkNames('columns');
  checkNames('filters');
  if (Array.isArray(list.columns) && list.columns.length === 0) issues.add(at(path, 'columns'), 'a list needs at least one column');
  if (list.sort !== undefined) {
    const sort = list.sort;
    if (!isString(sort)) issues.add(at(path, 'sort'), `must be a column name, "-" first for descending, got ${describeValue(sort)}`);
    else {
      const name = sort.startsWith('-') ? sort.slice(1) : sort;
      if (!columns.has(name)) issues.add(at(path, 'sort'), unknownColumn(name, entity));
      else if (columns.get(name) === 'references' || columns.get(name) === 'users')
        issues.add(
          at(path, 'sort'),
          `"${name}" holds many ${columns.get(name) === 'users' ? 'users' : 'records'}: a list cannot be sorted by it`,
        );
    }
  }
}

/** A board's columns are the values of a state or an enum field; what it sums, a number. */
function checkBoard(list: Rec, entity: EntityInfo, path: string, columns: ReadonlyMap<string, string>, issues: Issues): void {
  const { board, sum } = list;
  if (board !== undefined) {
    if (!isString(board)) issues.add(at(path, 'board'), `must be a field name, got ${describeValue(board)}`);
    else if (!columns.has(board)) issues.add(at(path, 'board'), unknownColumn(board, entity));
    else if (columns.get(board) !== 'state' && columns.get(board) !== 'enum')
      issues.add(
        at(path, 'board'),
        `"${board}" is ${withArticle(columns.get(board) ?? '')} field: a board has a column per value of the workflow's state${entity.workflow ? ` ("${entity.workflow.field}")` : ''} or of an enum field`,
      );
  }
  if (sum === undefined) return;
  if (board === undefined) issues.add(at(path, 'sum'), 'is the sum under each column of a board: declare "board" too');
  else if (!isString(sum)) issues.add(at(path, 'sum'), `must be a field name, got ${describeValue(sum)}`);
  else if (!columns.has(sum)) issues.add(at(path, 'sum'), unknownColumn(sum, entity));
  else if (!SUMMABLE.includes(columns.get(sum) ?? ''))
    issues.add(
      at(path, 'sum'),
      `"${sum}" is ${withArticle(columns.get(sum) ?? '')} field; only a number can be summed (${SUMMABLE.join(', ')})`,
    );
}

function unknownColumn(name: string, entity: EntityInfo): string {
  return `unknown column "${name}" of ${entity.name} (expected a field, id, createdAt, updatedAt, createdBy, updatedBy${entity.workflow ? ` or ${entity.workflow.field}` : ''})`;
}
