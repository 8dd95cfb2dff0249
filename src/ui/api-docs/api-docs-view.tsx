import type { OpenApiDocument } from '@/api/openapi/types';
import { cn } from '../cn';
import { OperationView } from './operation';
import { cellClass, Code, DocText, MethodBadge, PropertiesTable, SchemaLink, StatusBadge, Table } from './parts';
import { errorCodes, operationAnchor, operationsByTag, refName, schemaAnchor, tagAnchor } from './schema-text';

/**
 * The OpenAPI document for people: what the API is, how to authenticate, every operation by
 * tag, the error catalogue and every schema. Server-rendered; links are plain anchors.
 */
export function ApiDocsView({
  document,
  documentUrl,
  tokenCommand,
}: {
  document: OpenApiDocument;
  documentUrl: string;
  tokenCommand: string;
}) {
  const basePath = document.servers[0]?.url ?? '';
  const groups = operationsByTag(document);
  // The description opens with the application's summary; the page explains the rest itself.
  const summary = (document.info.description ?? '').split('\n\n')[0];
  const cookie = document.components.securitySchemes.cookieAuth;
  const cookieName = cookie?.type === 'apiKey' ? cookie.name : 'the session cookie';
  return (
    <article className="space-y-8">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <div className="mb-1 text-sm text-zinc-500">
            API reference · version {document.info.version} · OpenAPI {document.openapi}
          </div>
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{document.info.title} API</h1>
          {summary ? <p className="mt-1 max-w-3xl text-sm text-zinc-600">{summary}</p> : null}
        </div>
        <a
          href={documentUrl}
          className="inline-flex shrink-0 items-center justify-center rounded-md bg-white px-3 py-1.5 text-sm font-medium text-zinc-900 shadow-sm ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50"
        >
          openapi.json
        </a>
      </header>

      <section aria-labelledby="overview" className="rounded-lg border border-zinc-200 bg-white p-5 shadow-xs">
        <h2 id="overview" className="text-lg font-semibold text-zinc-900">
          Using the API
        </h2>
        <div className="mt-3 space-y-3 text-sm leading-relaxed text-zinc-700">
          <p>
            Every address below is relative to <Code>{basePath}</Code>. Requests and responses are JSON (
            <Code>application/json; charset=utf-8</Code>). The machine-readable description is at{' '}
            <a href={documentUrl} className="text-accent-700 underline underline-offset-2">
              {documentUrl}
            </a>
            : load it into any OpenAPI viewer or client generator.
          </p>
          <h3 className="pt-2 font-semibold text-zinc-900">Authentication</h3>
          <p>
            Scripts use a personal API token. Create one on the server with <Code>{tokenCommand}</Code>, then send it with every request:
          </p>
          <pre tabIndex={0} className="overflow-x-auto rounded-md bg-zinc-900 p-3 text-xs text-zinc-100 dark:bg-zinc-50 dark:text-zinc-800">
            <code>{`curl -H "Authorization: Bearer $TOKEN" https://<this host>${basePath}/auth/me`}</code>
          </pre>
          <p>
            A browser uses the session cookie <Code>{cookieName}</Code>, set by signing in (the sign-in page, or{' '}
            <Code>POST {basePath}/auth/sign-in</Code>). With the cookie, every request that changes data must carry an <Code>Origin</Code>{' '}
            header of this application, or it is refused with 403.
          </p>
          <h3 className="pt-2 font-semibold text-zinc-900">Changes and versions</h3>
          <p>
            Every record has a <Code>version</Code>; reads return it as the <Code>ETag</Code> header. A change (PATCH) must say which
            version it is based on, as <Code>If-Match</Code> or as <Code>version</Code> in the body: without it the answer is 428, and when
            the record changed meanwhile it is 409 <Code>STALE_VERSION</Code>.
          </p>
        </div>
      </section>

      <nav aria-label="Operations" className="rounded-lg border border-zinc-200 bg-white p-5 shadow-xs">
        <h2 className="text-lg font-semibold text-zinc-900">Operations</h2>
        <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {groups.map((group) => (
            <div key={group.tag}>
              <a href={`#${tagAnchor(group.tag)}`} className="text-sm font-semibold text-zinc-900 hover:underline">
                {group.tag}
              </a>
              <ul className="mt-1 space-y-1">
                {group.operations.map(({ method, path, operation }) => (
                  <li key={operation.operationId} className="flex items-center gap-2 text-xs">
                    <MethodBadge method={method} />
                    <a
                      href={`#${operationAnchor(operation.operationId)}`}
                      className="truncate font-mono text-zinc-700 hover:text-zinc-900 hover:underline"
                    >
                      {path}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </nav>

      {groups.map((group) => (
        <section
          key={group.tag}
          id={tagAnchor(group.tag)}
          aria-labelledby={`${tagAnchor(group.tag)}-title`}
          className="scroll-mt-20 space-y-4"
        >
          <div>
            <h2 id={`${tagAnchor(group.tag)}-title`} className="text-xl font-semibold text-zinc-900">
              {group.tag}
            </h2>
            {group.description ? <p className="mt-1 text-sm text-zinc-600">{group.description}</p> : null}
          </div>
          {group.operations.map((entry) => (
            <OperationView key={entry.operation.operationId} document={document} entry={entry} basePath={basePath} />
          ))}
        </section>
      ))}

      <section id="errors" aria-labelledby="errors-title" className="scroll-mt-20 space-y-3">
        <h2 id="errors-title" className="text-xl font-semibold text-zinc-900">
          Errors
        </h2>
        <p className="text-sm text-zinc-600">
          Every error is <Code>application/problem+json</Code> (RFC 9457): a <SchemaLink name="Problem" /> whose <Code>code</Code> is one of
          these. Invalid input answers 422 <Code>VALIDATION_FAILED</Code> with <Code>errors</Code> naming each field; an unexpected error
          answers 500 <Code>INTERNAL</Code> with a <Code>digest</Code> that the server log carries too.
        </p>
        <Table columns={['Code', 'Status', 'Title', 'Message', 'Operations']}>
          {errorCodes(document).map((entry) => (
            <tr key={entry.code} id={`error-${entry.code}`}>
              <td className={cn(cellClass, 'font-mono text-xs font-medium text-zinc-900')}>{entry.code}</td>
              <td className={cellClass}>
                <StatusBadge status={String(entry.status)} />
              </td>
              <td className={cn(cellClass, 'text-xs')}>{entry.title}</td>
              <td className={cn(cellClass, 'text-xs')}>{entry.message}</td>
              <td className={cn(cellClass, 'text-xs text-zinc-500')}>
                {entry.code === 'METHOD_NOT_ALLOWED'
                  ? 'any path, for a method it does not answer (with Allow)'
                  : entry.operations.length === 0
                    ? '—'
                    : entry.operations.length > 6
                      ? `${entry.operations.length} operations`
                      : entry.operations.join(', ')}
              </td>
            </tr>
          ))}
        </Table>
      </section>

      <section id="schemas" aria-labelledby="schemas-title" className="scroll-mt-20 space-y-4">
        <h2 id="schemas-title" className="text-xl font-semibold text-zinc-900">
          Schemas
        </h2>
        {Object.entries(document.components.schemas).map(([name, schema]) => {
          const base = refName(schema.allOf?.[0]?.$ref);
          return (
            <section
              key={name}
              id={schemaAnchor(name)}
              aria-labelledby={`${schemaAnchor(name)}-title`}
              className="scroll-mt-20 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs"
            >
              <h3 id={`${schemaAnchor(name)}-title`} className="font-mono text-sm font-semibold text-zinc-900">
                <a href={`#${schemaAnchor(name)}`} className="hover:underline">
                  {name}
                </a>
                {schema.title && schema.title !== name ? (
                  <span className="ml-2 font-sans font-normal text-zinc-500">{schema.title}</span>
                ) : null}
              </h3>
              {schema.description ? (
                <p className="mt-1 mb-3 text-sm text-zinc-600">
                  <DocText text={schema.description} />
                </p>
              ) : (
                <div className="mb-3" />
              )}
              {base ? (
                <p className="mb-2 text-sm text-zinc-600">
                  Everything of <SchemaLink name={base} />, and:
                </p>
              ) : null}
              <PropertiesTable schema={schema} />
              {schema.additionalProperties === false ? <p className="mt-2 text-xs text-zinc-500">No other properties.</p> : null}
            </section>
          );
        })}
      </section>
    </article>
  );
}
