import { LIST_TOOLS } from './list/list-tools';
import Link from 'next/link';
import { Button, buttonClass } from './button';
import { AutoApplyForm } from './list/auto-apply-form';
import { ChoicePicker } from './forms/choice-picker';
import { ReferencesPicker } from './forms/references-picker';
import type { PickerSearch } from './forms/state';

export interface FilterOption {
  readonly value: string;
  readonly label: string;
}

/** One filter of a list: a select of values, an id input (when there are too many), or free text. */
export interface FilterControl {
  /** The search parameter it sets. */
  readonly param: string;
  readonly label: string;
  /** `multi`: several of `options` ("has any of"), the value their ids joined by commas. */
  readonly kind: 'select' | 'multi' | 'id' | 'text';
  readonly options: readonly FilterOption[];
  readonly value: string;
  /** A reference or user filter, or a references or users one: the server search its combobox asks (./forms/choice-picker.tsx, ./forms/references-picker.tsx). */
  readonly search?: PickerSearch;
}

/** An active filter, shown beside the Filters disclosure: "Priority: Urgent", a link to the list without it. */
export interface FilterChip {
  readonly param: string;
  readonly text: string;
  readonly removeHref: string;
}

const controlClass =
  'block h-9 w-full rounded-md border-0 bg-white py-1.5 pl-2.5 text-sm text-zinc-900 shadow-xs ring-1 ring-inset ring-zinc-300 focus:ring-2 focus:ring-accent-600 focus-visible:outline-none';

/**
 * The filters and search of a list in one GET form, one row high: the search box, a "Filters"
 * disclosure (native <details>, so it opens without JavaScript) holding the filter fields over
 * the list, and the active filters as chips, each a link that removes it. With JavaScript they
 * apply as they change (AutoApplyForm); without, it is a plain GET form with an Apply button.
 * Either way the list starts again at its first page (no cursor) and keeps its sort and columns.
 */
export function ListFilters({
  action,
  filters,
  chips = [],
  search,
  sort,
  columns,
  sortOptions = [],
  resetHref,
  view = '',
}: {
  action: string;
  filters: readonly FilterControl[];
  /** The active filters (src/server/filter-chips.ts). */
  chips?: readonly FilterChip[];
  search: { readonly label: string; readonly value: string } | null;
  sort: string | null;
  /** The columns chosen (`columns=`), kept as they are. */
  columns: readonly string[];
  /**
   * The orders to choose from where the table's headers are not shown (phones): a select in the
   * disclosure, hidden on wider screens, where it carries the current sort as is.
   */
  sortOptions?: readonly FilterOption[];
  resetHref: string | null;
  /** How the list is shown (`view=`), kept as it is. */
  view?: string;
}) {
  if (filters.length === 0 && !search) return null;
  const active = filters.filter((f) => f.value !== '').length;
  const folded = filters.length > 0 || sortOptions.length > 0;
  // Only the phones' sort to hold: the disclosure is for phones only.
  const name = filters.length > 0 ? 'Filters' : 'Sort';
  return (
    // Positioned: from `sm` up the disclosure's panel opens across the form's width, over the list.
    <AutoApplyForm action={action} label="Filter the list" className="relative flex min-w-0 grow flex-wrap items-center gap-2">
      {search ? (
        <>
          <label htmlFor="list-q" className="sr-only">
            {search.label}
          </label>
          <input
            id="list-q"
            type="search"
            name="q"
            defaultValue={search.value}
            placeholder={`${search.label}…`}
            maxLength={200}
            className={`${controlClass.replace('h-9 w-full', 'h-8 w-full sm:w-56')} pr-2.5`}
          />
        </>
      ) : null}
      {folded ? (
        // On a phone a line of its own, its fields pushing the list down; from `sm` up a panel over the list.
        <details name={LIST_TOOLS} className={filters.length > 0 ? 'group/filters max-sm:w-full' : 'group/filters max-sm:w-full sm:hidden'}>
          <summary className={`${buttonClass('secondary')} h-8 cursor-pointer list-none select-none [&::-webkit-details-marker]:hidden`}>
            {active > 0 ? `${name} (${active})` : name}
            <svg aria-hidden="true" viewBox="0 0 10 10" className="size-2.5 text-zinc-500 group-open/filters:rotate-180">
              <path d="M1 3l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.5" />
            </svg>
          </summary>
          <div className="mt-2 flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-3 shadow-xs sm:absolute sm:inset-x-0 sm:z-20 sm:shadow-lg">
            {filters.map((filter) => (
              <div key={filter.param} className="min-w-36">
                <label htmlFor={`filter-${filter.param}`} className="mb-1 block text-xs font-medium text-zinc-600">
                  {filter.label}
                </label>
                {filter.search && (filter.kind === 'multi' || filter.kind === 'text') ? (
                  // A references or users filter ("any of"): plain, a multiple select of a few or ids typed.
                  <ReferencesPicker
                    id={`filter-${filter.param}`}
                    name={filter.param}
                    label={filter.label}
                    value={filter.value}
                    titles={filter.options}
                    search={filter.search}
                    filter
                  >
                    {plainFilter(filter)}
                  </ReferencesPicker>
                ) : filter.search ? (
                  <ChoicePicker
                    id={`filter-${filter.param}`}
                    name={filter.param}
                    label={filter.label}
                    value={filter.value}
                    valueLabel={filter.options.find((o) => o.value === filter.value)?.label}
                    search={filter.search}
                    submitOnChoose
                  >
                    {plainFilter(filter)}
                  </ChoicePicker>
                ) : (
                  plainFilter(filter)
                )}
              </div>
            ))}
            {sortOptions.length > 0 ? (
              <div className="min-w-36 sm:hidden">
                <label htmlFor="list-sort" className="mb-1 block text-xs font-medium text-zinc-600">
                  Sort
                </label>
                <select id="list-sort" name="sort" defaultValue={sort ?? ''} className={`${controlClass} pr-8`}>
                  <option value="">Default</option>
                  {sortOptions.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
          </div>
        </details>
      ) : null}
      {sortOptions.length === 0 && sort ? <input type="hidden" name="sort" value={sort} /> : null}
      {columns.length > 0 ? <input type="hidden" name="columns" value={columns.join(',')} /> : null}
      {view ? <input type="hidden" name="view" value={view} /> : null}
      {/* Filters apply as they change with JavaScript; the button is for when it does not run. */}
      <Button type="submit" variant="primary" className="h-8 group-data-enhanced:hidden">
        Apply
      </Button>
      {chips.length > 0 ? (
        <ul aria-label="Active filters" className="flex flex-wrap items-center gap-1.5">
          {chips.map((chip) => (
            <li key={chip.param}>
              <Link
                href={chip.removeHref}
                className="inline-flex items-center gap-1 rounded-full bg-accent-50 py-0.5 pr-1.5 pl-2.5 text-xs font-medium text-accent-700 ring-1 ring-accent-600/20 ring-inset hover:bg-accent-100"
              >
                <span className="sr-only">Remove the filter </span>
                {chip.text}
                <svg aria-hidden="true" viewBox="0 0 10 10" className="size-2.5">
                  <path d="M2 2l6 6M8 2l-6 6" stroke="currentColor" strokeWidth="1.5" />
                </svg>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {resetHref ? (
        <Link href={resetHref} className="rounded px-2 py-1.5 text-sm text-zinc-600 hover:text-zinc-900">
          Clear
        </Link>
      ) : null}
    </AutoApplyForm>
  );
}

/** A filter as the server renders it: a select of values, several of them, free text, or an id. */
function plainFilter(filter: FilterControl) {
  return filter.kind === 'select' ? (
    <select id={`filter-${filter.param}`} name={filter.param} defaultValue={filter.value} className={`${controlClass} pr-8`}>
      <option value="">Any</option>
      {filter.options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  ) : filter.kind === 'multi' ? (
    <select
      id={`filter-${filter.param}`}
      name={filter.param}
      multiple
      size={Math.min(Math.max(filter.options.length, 2), 4)}
      defaultValue={filter.value.split(',').filter((v) => v !== '')}
      className={`${controlClass.replace('h-9 ', '')} pr-2.5`}
    >
      {filter.options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  ) : filter.kind === 'text' ? (
    <input
      id={`filter-${filter.param}`}
      type="text"
      name={filter.param}
      defaultValue={filter.value}
      maxLength={200}
      className={`${controlClass} pr-2.5`}
    />
  ) : (
    <input
      id={`filter-${filter.param}`}
      type="number"
      min={1}
      step={1}
      name={filter.param}
      defaultValue={filter.value}
      placeholder="ID"
      className={`${controlClass} w-28 pr-2.5`}
    />
  );
}
