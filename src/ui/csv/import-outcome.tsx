import type { ReactNode, Ref } from 'react';
import { Alert } from '../alert';
import { IMPORT_PROBLEMS_SHOWN, type ImportProblem, type ImportState } from './import-state';

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function ProblemTable({ problems, caption }: { problems: readonly ImportProblem[]; caption: string }) {
  const lines = problems.some((p) => p.line !== null);
  return (
    <div className="mt-3 max-h-96 overflow-auto rounded-md border border-zinc-200" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-zinc-50 text-xs font-medium text-zinc-600 uppercase">
          <tr>
            {lines ? (
              <th scope="col" className="px-3 py-2">
                Line
              </th>
            ) : null}
            <th scope="col" className="px-3 py-2">
              Column
            </th>
            <th scope="col" className="px-3 py-2">
              Problem
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 bg-white">
          {problems.map((p, i) => (
            <tr key={i} className="align-top">
              {lines ? <td className="px-3 py-2 tabular-nums text-zinc-900">{p.line ?? ''}</td> : null}
              <td className="px-3 py-2 font-medium text-zinc-900">{p.column ?? '—'}</td>
              <td className="px-3 py-2 text-zinc-700">{p.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * How an import went: what was written, and each refused line with its column and problem; or
 * why the file could not be imported at all. `importGood` is what the page offers to import the
 * good rows of the same file (a button with JavaScript, which still has the file; a hint without).
 */
export function ImportOutcome({
  state,
  one,
  many,
  listHref,
  importGood,
  headingRef,
}: {
  state: ImportState;
  one: string;
  many: string;
  listHref: string;
  importGood: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  if (state.kind === 'idle') return null;
  if (state.kind === 'refused') {
    return (
      <section aria-labelledby="import-outcome" className="mt-6">
        <h2 id="import-outcome" ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-zinc-900">
          Nothing was imported{state.fileName ? ` from ${state.fileName}` : ''}
        </h2>
        <div className="mt-2">
          <Alert title={state.title}>
            <p>{state.message}</p>
          </Alert>
        </div>
        {state.problems.length > 0 ? (
          <ProblemTable problems={state.problems.map((p) => ({ ...p, line: null }))} caption="Columns to fix" />
        ) : null}
      </section>
    );
  }
  const refused = state.refusedRows;
  const written = state.created > 0;
  const title =
    refused === 0
      ? `Imported ${count(state.created, 'row', 'rows')}`
      : written
        ? `Imported ${count(state.created, 'row', 'rows')}; ${count(refused, 'row was', 'rows were')} left out`
        : 'Nothing was imported';
  // The server sends the first problems only (IMPORT_PROBLEMS_SHOWN) and counts the other rows; the file of refused rows, when offered, has them all.
  const shownAll = state.problems.length < IMPORT_PROBLEMS_SHOWN && state.unlistedRows === 0;
  return (
    <section aria-labelledby="import-outcome" className="mt-6">
      <h2 id="import-outcome" ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-zinc-900">
        {title}
      </h2>
      <div className="mt-2 space-y-3 text-sm text-zinc-700">
        {refused === 0 ? (
          <Alert tone="info">
            <p>
              {state.created === 1
                ? `The row of ${state.fileName} is now a new ${one}.`
                : `All ${state.created.toLocaleString('en-US')} rows of ${state.fileName} are now new ${many}.`}{' '}
              <a href={listHref} className="font-medium underline underline-offset-2">
                Open the list
              </a>
            </p>
          </Alert>
        ) : (
          <>
            <p>
              {written
                ? `${count(refused, 'row', 'rows')} of ${state.rows.toLocaleString('en-US')} had problems and ${refused === 1 ? 'was' : 'were'} not imported; the others were.`
                : `${count(refused, 'row', 'rows')} of ${state.rows.toLocaleString('en-US')} ${refused === 1 ? 'has' : 'have'} problems, so nothing was written: fix them and import the file again${state.rows > refused ? ', or import the good rows only' : ''}.`}
            </p>
            {!written && state.rows > refused ? importGood : null}
            {state.rejects !== null ? (
              <p>
                <a
                  href={`data:text/csv;charset=utf-8,${encodeURIComponent(state.rejects)}`}
                  download={`${state.fileName.replace(/\.csv$/i, '') || many}-problems.csv`}
                  className="font-medium text-accent-700 underline underline-offset-2"
                >
                  Download the {refused === 1 ? 'refused row' : 'refused rows'} with their problems (CSV)
                </a>
              </p>
            ) : null}
            <ProblemTable
              problems={state.problems}
              caption={shownAll ? 'Problems by line' : `The first ${state.problems.length} problems by line`}
            />
            {state.unlistedRows > 0 ? (
              <p>…and {count(state.unlistedRows, 'more row', 'more rows')} with problems, not listed here.</p>
            ) : null}
            {written ? (
              <p>
                <a href={listHref} className="font-medium text-accent-700 underline underline-offset-2">
                  Open the list
                </a>
              </p>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
