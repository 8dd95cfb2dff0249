import type { DocBlock, SpecDocument } from '@/engine/spec/document';
import { NOT_SHOWN } from '@/engine/spec/document';
import { WorkflowDiagram } from './workflow-diagram';

/** Text with `code` spans, the one inline mark the document uses; everything else stays text. */
function InlineText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <>
      {parts.map((part, index) =>
        part.length > 2 && part.startsWith('`') && part.endsWith('`') ? (
          <code key={index} className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] text-zinc-800">
            {part.slice(1, -1)}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Block({ block }: { block: DocBlock }) {
  switch (block.kind) {
    case 'heading':
      return <h3 className="mt-6 mb-2 text-base font-semibold text-zinc-900">{block.text}</h3>;
    case 'paragraph':
      return (
        <p className="my-2 text-sm leading-relaxed text-zinc-700">
          <InlineText text={block.text} />
        </p>
      );
    case 'list':
      return (
        <ul className="my-2 list-disc space-y-1 pl-6 text-sm text-zinc-700">
          {block.items.map((item, index) => (
            <li key={index}>
              <InlineText text={item} />
            </li>
          ))}
        </ul>
      );
    case 'table':
      return (
        // Wide tables scroll sideways on a phone: focusable, so that the keyboard can scroll them too
        // (a named group, not a landmark: the spec has many tables).
        <div
          tabIndex={0}
          role="group"
          aria-label={`Table: ${block.columns.join(', ')}`}
          className="my-3 overflow-x-auto rounded-lg border border-zinc-200"
        >
          <table className="min-w-full divide-y divide-zinc-200 text-sm">
            <thead className="bg-zinc-50">
              <tr>
                {block.columns.map((column, index) => (
                  <th key={index} scope="col" className="px-3 py-2 text-left text-xs font-medium tracking-wide text-zinc-500 uppercase">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 bg-white">
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((cell, cellIndex) => (
                    <td key={cellIndex} className="px-3 py-2 align-top text-zinc-700">
                      <InlineText text={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'workflow':
      return (
        <>
          <WorkflowDiagram block={block} title="State diagram" />
          <details className="my-2 text-xs text-zinc-500">
            <summary className="cursor-pointer">Mermaid source</summary>
            <pre
              tabIndex={0}
              className="mt-2 overflow-x-auto rounded-md bg-zinc-900 p-4 leading-relaxed text-zinc-100 dark:bg-zinc-50 dark:text-zinc-800"
            >
              <code>{block.mermaid}</code>
            </pre>
          </details>
        </>
      );
    case 'code':
      return (
        <pre
          tabIndex={0}
          data-language={block.language}
          className={
            block.language === 'mermaid'
              ? 'mermaid my-3 overflow-x-auto rounded-md bg-zinc-900 p-4 text-xs leading-relaxed text-zinc-100 dark:bg-zinc-50 dark:text-zinc-800'
              : 'my-3 overflow-x-auto rounded-md bg-zinc-900 p-4 text-xs leading-relaxed text-zinc-100 dark:bg-zinc-50 dark:text-zinc-800'
          }
        >
          <code>{block.text}</code>
        </pre>
      );
  }
}

/** The spec as the nine-point document: each point a section, in order; an empty point says so. */
export function SpecDocumentView({ document }: { document: SpecDocument }) {
  return (
    <article>
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{document.title}</h1>
      <div className="mt-6 space-y-4">
        {document.points.map((point) => (
          <section
            key={point.number}
            aria-labelledby={`point-${point.number}`}
            className="rounded-lg border border-zinc-200 bg-white p-5 shadow-xs"
          >
            <h2 id={`point-${point.number}`} className="text-lg font-semibold text-zinc-900">
              {`${point.number}. ${point.heading}`}
            </h2>
            {point.empty ? (
              <p className="mt-2 text-sm text-zinc-500 italic">{NOT_SHOWN}</p>
            ) : (
              point.blocks.map((block, index) => <Block key={index} block={block} />)
            )}
          </section>
        ))}
      </div>
    </article>
  );
}
