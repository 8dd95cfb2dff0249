import { isReadable } from '../access/fields';
import type { EntityModel } from '../spec/model';
import type { ListLayout, ListState } from './types';

/** System columns a list may show besides the fields: what every record has and people read. */
const SYSTEM_COLUMNS = ['id', 'createdAt', 'updatedAt'];
/** Bounds on what a view keeps, so that one row (and one address) stays small. */
const MAX_COLUMNS = 30;
const MAX_VALUE_LENGTH = 200;

export const EMPTY_LIST_STATE: ListState = { filters: {}, q: '', sort: '', columns: [] };

/**
 * The columns a viewer may choose for a list, in the order a chooser offers them: the list
 * screen's own columns first, then the other fields (long text left out: it does not fit a table
 * cell), the workflow state, then the record's id and times. Only what the viewer may read.
 */
export function columnChoices(entity: EntityModel, readable: ReadonlySet<string>): string[] {
  const names = [
    ...entity.list.columns,
    ...entity.fields.filter((f) => f.type !== 'markdown').map((f) => f.name),
    ...(entity.workflow ? [entity.workflow.field] : []),
    ...SYSTEM_COLUMNS,
  ];
  return [...new Set(names)].filter((name) => isReadable(entity, readable, name));
}

/**
 * What of a list state this viewer may open: filters, sort keys and columns naming a field the
 * viewer may not read (or the list does not offer) are dropped, and `dropped` counts them. Run
 * when a saved view is opened, since the roles of its viewer (or the spec) may differ from when
 * it was saved; the list itself refuses forbidden fields through ops anyway.
 */
export function viewableState(entity: EntityModel, readable: ReadonlySet<string>, state: ListState): { state: ListState; dropped: number } {
  let dropped = 0;
  const keep = (ok: boolean) => {
    if (!ok) dropped += 1;
    return ok;
  };
  const filters = Object.fromEntries(
    Object.entries(state.filters).filter(
      ([name, value]) => value !== '' && keep(entity.list.filters.includes(name) && isReadable(entity, readable, name)),
    ),
  );
  const sort = state.sort
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '' && keep(isReadable(entity, readable, term.replace(/^-/, ''))))
    .join(',');
  const choices = new Set(columnChoices(entity, readable));
  const columns = [...new Set(state.columns)].filter((name) => keep(choices.has(name)));
  return { state: { filters, q: state.q, sort, columns, ...layoutOf(state.layout) }, dropped };
}

/**
 * A list state as stored: strings trimmed to their bounds, empty filters and repeated columns
 * left out. It says nothing about access (viewableState does, for each viewer).
 */
export function boundedState(state: ListState): ListState {
  const clip = (text: string) => text.trim().slice(0, MAX_VALUE_LENGTH);
  const filters = Object.fromEntries(
    Object.entries(state.filters)
      .map(([name, value]) => [name.slice(0, 100), clip(value)] as const)
      .filter(([, value]) => value !== ''),
  );
  return {
    filters,
    q: clip(state.q),
    sort: clip(state.sort),
    columns: [...new Set(state.columns.map((c) => c.slice(0, 100)))].slice(0, MAX_COLUMNS),
    ...layoutOf(state.layout),
  };
}

/** The layout a state keeps: only a known one, and none for the list's default. */
export function layoutOf(value: unknown): { layout?: ListLayout } {
  return value === 'table' || value === 'board' ? { layout: value } : {};
}

/** Whether two list states show the same list (the order of filters aside). */
export function sameListState(a: ListState, b: ListState): boolean {
  const filters = (s: ListState) =>
    JSON.stringify(
      Object.entries(s.filters)
        .filter(([, v]) => v !== '')
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return (
    a.q.trim() === b.q.trim() &&
    a.sort === b.sort &&
    a.columns.join(',') === b.columns.join(',') &&
    (a.layout ?? '') === (b.layout ?? '') &&
    filters(a) === filters(b)
  );
}
