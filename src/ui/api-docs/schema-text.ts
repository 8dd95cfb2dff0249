import type { JsonSchema, OpenApiDocument, OperationObject, ParameterObject } from '@/api/openapi/types';
import { HTTP_METHODS, type HttpMethod } from '@/api/openapi/types';

/** How the API docs page reads the OpenAPI document: schemas as words, operations by tag. */

/** "#/components/schemas/Ticket" → "Ticket". */
export function refName(ref: string | undefined): string | null {
  const match = ref ? /^#\/components\/schemas\/(.+)$/.exec(ref) : null;
  return match?.[1] ?? null;
}

export const schemaAnchor = (name: string) => `schema-${name}`;
export const operationAnchor = (operationId: string) => `op-${operationId}`;
export const tagAnchor = (tag: string) => `tag-${tag.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** The component a schema names, directly or as the first of an allOf (a narrowed Problem). */
export function schemaName(schema: JsonSchema | undefined): string | null {
  if (!schema) return null;
  return refName(schema.$ref) ?? refName(schema.allOf?.[0]?.$ref);
}

/** The JSON types of a schema without "null", and whether null is allowed. */
export function typesOf(schema: JsonSchema): { types: string[]; nullable: boolean } {
  const all = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : [...schema.type];
  const types = all.filter((t) => t !== 'null');
  return { types, nullable: all.includes('null') || (schema.enum?.includes(null) ?? false) };
}

/** "string (date-time)", "integer", "array of Ticket", "Ticket", "Ticket or Receipt", "true". */
export function typeText(schema: JsonSchema): string {
  const ref = refName(schema.$ref);
  if (ref) return ref;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const { types } = typesOf(schema);
  if (types.includes('array')) return `array of ${schema.items ? typeText(schema.items) : 'anything'}`;
  if (types.length === 0) {
    if (schema.allOf?.length) return schema.allOf.map(typeText).join(' & ');
    // A write's answer: the record, or its receipt when the caller may not read it.
    return schema.anyOf?.length ? schema.anyOf.map(typeText).join(' or ') : 'any';
  }
  const base = types.join(' or ');
  return schema.format ? `${base} (${schema.format})` : base;
}

/** What a value must be, beyond its type: "3 to 200 characters", "one of: low, normal". */
export function constraintsText(schema: JsonSchema): string[] {
  const parts: string[] = [];
  const values = schema.enum?.filter((v) => v !== null);
  if (values?.length) parts.push(`one of: ${values.join(', ')}`);
  if (schema.minLength !== undefined && schema.maxLength !== undefined) parts.push(`${schema.minLength} to ${schema.maxLength} characters`);
  else if (schema.minLength !== undefined) parts.push(`at least ${schema.minLength} characters`);
  else if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  if (schema.minimum !== undefined && schema.maximum !== undefined) parts.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) parts.push(`at least ${schema.minimum}`);
  else if (schema.maximum !== undefined) parts.push(`at most ${schema.maximum}`);
  if (schema.pattern) parts.push(`matches ${schema.pattern}`);
  if (schema.contentMediaType) parts.push(schema.contentMediaType);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.readOnly) parts.push('read-only');
  return parts;
}

/** "Created by" and "createdBy" say the same: the title adds nothing then. */
function sameWords(title: string, name: string): boolean {
  const plain = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return plain(title) === plain(name);
}

export interface PropertyRow {
  readonly name: string;
  readonly type: string;
  /** The component the property refers to, to link to. */
  readonly ref: string | null;
  readonly required: boolean;
  readonly nullable: boolean;
  readonly constraints: readonly string[];
  readonly description: string;
}

/** One row per property of an object schema, in the document's order. */
export function propertyRows(schema: JsonSchema): PropertyRow[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    type: typeText(property),
    ref: refName(property.$ref) ?? refName(property.items?.$ref),
    required: required.has(name),
    nullable: typesOf(property).nullable,
    constraints: constraintsText(property),
    description: [property.title && !sameWords(property.title, name) ? property.title : '', property.description ?? '']
      .filter(Boolean)
      .join(' — '),
  }));
}

/** A schema as written, or the component it refers to. */
export function resolveSchema(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const name = refName(schema.$ref);
  return name ? (document.components.schemas[name] ?? schema) : schema;
}

export interface OperationEntry {
  readonly path: string;
  readonly method: HttpMethod;
  readonly operation: OperationObject;
  /** Path-level parameters first, then the operation's own. */
  readonly parameters: readonly ParameterObject[];
}

/** Operations grouped by tag, in the order of the document's tags; each operation under its first tag. */
export function operationsByTag(document: OpenApiDocument): { tag: string; description: string; operations: OperationEntry[] }[] {
  const groups = document.tags.map((tag) => ({ tag: tag.name, description: tag.description ?? '', operations: [] as OperationEntry[] }));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const entry = { path, method, operation, parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])] };
      const group = groups.find((g) => g.tag === operation.tags[0]);
      if (group) group.operations.push(entry);
      else groups.push({ tag: operation.tags[0] ?? 'other', description: '', operations: [entry] });
    }
  }
  return groups.filter((group) => group.operations.length > 0);
}

/** Who may call an operation, from its security requirements. */
export function securityText(document: OpenApiDocument, operation: OperationObject): string {
  const requirements = operation.security ?? document.security;
  if (requirements.length === 0) return 'Public';
  if (requirements.some((r) => Object.keys(r).length === 0)) return 'Anyone';
  return 'Signed in (cookie or token)';
}

/** The error catalogue, each code with the operations that document it. */
export function errorCodes(
  document: OpenApiDocument,
): { code: string; status: number; title: string; message: string; operations: string[] }[] {
  const uses = new Map<string, string[]>();
  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      for (const response of Object.values(operation?.responses ?? {})) {
        for (const code of response['x-error-codes'] ?? []) uses.set(code, [...(uses.get(code) ?? []), operation!.operationId]);
      }
    }
  }
  return document['x-error-catalogue'].map((entry) => ({ ...entry, operations: uses.get(entry.code) ?? [] }));
}
