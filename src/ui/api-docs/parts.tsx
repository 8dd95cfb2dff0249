import type { ReactNode } from 'react';
import type { HttpMethod, JsonSchema } from '@/api/openapi/types';
import { cn } from '../cn';
import { propertyRows, schemaAnchor } from './schema-text';

/** Small server-rendered pieces of the API docs page. */

const METHOD_TONES: Record<HttpMethod, string> = {
  get: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  post: 'bg-accent-50 text-accent-700 ring-accent-600/20',
  put: 'bg-violet-50 text-violet-700 ring-violet-600/20',
  patch: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  delete: 'bg-red-50 text-red-700 ring-red-600/20',
};

export function MethodBadge({ method }: { method: HttpMethod }) {
  return (
    <span
      className={cn(
        'inline-flex w-16 shrink-0 justify-center rounded px-1.5 py-0.5 font-mono text-xs font-semibold uppercase ring-1 ring-inset',
        METHOD_TONES[method],
      )}
    >
      {method}
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const n = Number(status);
  const tone =
    n < 300
      ? 'text-emerald-700 bg-emerald-50 ring-emerald-600/20'
      : n < 500
        ? 'text-amber-800 bg-amber-50 ring-amber-600/20'
        : 'text-red-700 bg-red-50 ring-red-600/20';
  return <span className={cn('inline-flex rounded px-1.5 py-0.5 font-mono text-xs font-semibold ring-1 ring-inset', tone)}>{status}</span>;
}

export function Code({ children }: { children: ReactNode }) {
  return <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] break-words text-zinc-800">{children}</code>;
}

/** Text with `code` spans (the one inline mark descriptions use). */
export function DocText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <>
      {parts.map((part, index) =>
        part.length > 2 && part.startsWith('`') && part.endsWith('`') ? <Code key={index}>{part.slice(1, -1)}</Code> : part,
      )}
    </>
  );
}

export function SchemaLink({ name }: { name: string }) {
  return (
    <a
      href={`#${schemaAnchor(name)}`}
      className="font-mono text-accent-700 underline decoration-accent-200 underline-offset-2 hover:decoration-accent-600"
    >
      {name}
    </a>
  );
}

/** A type as words, the component it refers to as a link. */
export function TypeText({ type, refName }: { type: string; refName: string | null }) {
  if (!refName) return <span className="font-mono text-xs text-zinc-700">{type}</span>;
  const [before, after] = type.split(refName);
  return (
    <span className="font-mono text-xs text-zinc-700">
      {before}
      <SchemaLink name={refName} />
      {after}
    </span>
  );
}

export function Table({ columns, children }: { columns: readonly string[]; children: ReactNode }) {
  return (
    // Scrolls sideways on a phone: focusable, so a keyboard can scroll it too (as in spec-document.tsx).
    <div
      tabIndex={0}
      role="group"
      aria-label={`Table: ${columns.join(', ')}`}
      className="relative overflow-x-auto rounded-md border border-zinc-200"
    >
      <table className="min-w-full divide-y divide-zinc-200 text-sm">
        <thead className="bg-zinc-50">
          <tr>
            {columns.map((column) => (
              <th
                key={column}
                scope="col"
                className="px-3 py-2 text-left text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase"
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 bg-white">{children}</tbody>
      </table>
    </div>
  );
}

export const cellClass = 'px-3 py-2 align-top text-zinc-700';

/** The properties of an object schema: name, type, required, nullable, constraints. */
export function PropertiesTable({ schema }: { schema: JsonSchema }) {
  const rows = propertyRows(schema);
  if (rows.length === 0) return <p className="text-sm text-zinc-500 italic">No properties.</p>;
  return (
    <Table columns={['Property', 'Type', 'Required', 'Null', 'Rules', 'Description']}>
      {rows.map((row) => (
        <tr key={row.name}>
          <td className={cn(cellClass, 'font-mono text-xs font-medium whitespace-nowrap text-zinc-900')}>{row.name}</td>
          <td className={cellClass}>
            <TypeText type={row.type} refName={row.ref} />
          </td>
          <td className={cellClass}>{row.required ? 'yes' : 'no'}</td>
          <td className={cellClass}>{row.nullable ? 'yes' : 'no'}</td>
          <td className={cn(cellClass, 'text-xs')}>{row.constraints.join('; ')}</td>
          <td className={cn(cellClass, 'text-xs')}>
            <DocText text={row.description} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function SubHeading({ children, detail }: { children: ReactNode; detail?: ReactNode }) {
  return (
    <h4 className="mt-4 mb-2 text-xs font-semibold tracking-wide text-zinc-500">
      <span className="uppercase">{children}</span>
      {detail ? <span className="ml-1 font-normal tracking-normal normal-case">{detail}</span> : null}
    </h4>
  );
}
