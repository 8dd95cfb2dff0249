import type { OpenApiDocument } from '@/api/openapi/types';
import { cn } from '../cn';
import { cellClass, Code, DocText, MethodBadge, PropertiesTable, SchemaLink, StatusBadge, SubHeading, Table, TypeText } from './parts';
import {
  constraintsText,
  operationAnchor,
  refName,
  resolveSchema,
  schemaName,
  securityText,
  typeText,
  type OperationEntry,
} from './schema-text';

/** One operation: method, path, summary, who may call it, parameters, body and responses. */
export function OperationView({ document, entry, basePath }: { document: OpenApiDocument; entry: OperationEntry; basePath: string }) {
  const { operation, method, path, parameters } = entry;
  const anchor = operationAnchor(operation.operationId);
  const body = operation.requestBody?.content['application/json']?.schema;
  const bodyName = refName(body?.$ref);
  return (
    <section
      id={anchor}
      aria-labelledby={`${anchor}-title`}
      className="scroll-mt-20 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs"
    >
      <h3 id={`${anchor}-title`} className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <MethodBadge method={method} />
        <a href={`#${anchor}`} className="font-mono text-sm font-medium break-all text-zinc-900 hover:underline">
          {basePath}
          {path}
        </a>
        <span className="text-sm text-zinc-600">{operation.summary}</span>
      </h3>
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-500">
        <span>
          Operation <Code>{operation.operationId}</Code>
        </span>
        <span>{securityText(document, operation)}</span>
        {operation['x-roles'] ? <span>Roles: {operation['x-roles'].join(', ')}</span> : null}
      </div>
      {operation.description ? (
        <p className="mt-2 text-sm text-zinc-700">
          <DocText text={operation.description} />
        </p>
      ) : null}

      {parameters.length > 0 ? (
        <>
          <SubHeading>Parameters</SubHeading>
          <Table columns={['Name', 'In', 'Type', 'Required', 'Rules', 'Description']}>
            {parameters.map((parameter) => (
              <tr key={`${parameter.in}-${parameter.name}`}>
                <td className={cn(cellClass, 'font-mono text-xs font-medium whitespace-nowrap text-zinc-900')}>{parameter.name}</td>
                <td className={cellClass}>{parameter.in}</td>
                <td className={cellClass}>
                  <TypeText type={typeText(parameter.schema)} refName={null} />
                </td>
                <td className={cellClass}>{parameter.required ? 'yes' : 'no'}</td>
                <td className={cn(cellClass, 'text-xs')}>{constraintsText(parameter.schema).join('; ')}</td>
                <td className={cn(cellClass, 'text-xs')}>
                  <DocText text={parameter.description ?? ''} />
                </td>
              </tr>
            ))}
          </Table>
        </>
      ) : null}

      {body ? (
        <>
          <SubHeading detail={bodyName ? <SchemaLink name={bodyName} /> : null}>Request body (application/json)</SubHeading>
          <PropertiesTable schema={resolveSchema(document, body)} />
        </>
      ) : null}

      <SubHeading>Responses</SubHeading>
      <Table columns={['Status', 'Meaning', 'Body', 'Headers']}>
        {Object.entries(operation.responses).map(([status, response]) => {
          const media = Object.entries(response.content ?? {})[0];
          const name = media ? schemaName(media[1].schema) : null;
          return (
            <tr key={status}>
              <td className={cellClass}>
                <StatusBadge status={status} />
              </td>
              <td className={cn(cellClass, 'text-xs')}>
                {response['x-error-codes'] ? (
                  <ul className="space-y-0.5">
                    {response.description.split('. ').map((line) => {
                      const [code, ...rest] = line.split(': ');
                      return (
                        <li key={code}>
                          <Code>{code}</Code> <DocText text={rest.join(': ')} />
                        </li>
                      );
                    })}
                  </ul>
                ) : (
                  <DocText text={response.description} />
                )}
              </td>
              <td className={cn(cellClass, 'text-xs')}>
                {media ? (
                  <>
                    {name ? <SchemaLink name={name} /> : <span className="font-mono">{typeText(media[1].schema)}</span>}
                    <div className="text-zinc-500">{media[0]}</div>
                  </>
                ) : (
                  <span className="text-zinc-500">none</span>
                )}
              </td>
              <td className={cn(cellClass, 'font-mono text-xs')}>{Object.keys(response.headers ?? {}).join(', ')}</td>
            </tr>
          );
        })}
      </Table>
      {Object.entries(operation.responses).map(([status, response]) => {
        const schema = response.content?.['application/json']?.schema;
        if (!schema || schemaName(schema) || !schema.properties) return null;
        return (
          <div key={status}>
            <SubHeading>Response body ({status})</SubHeading>
            <PropertiesTable schema={schema} />
          </div>
        );
      })}
    </section>
  );
}
