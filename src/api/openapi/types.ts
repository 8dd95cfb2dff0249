/**
 * The parts of OpenAPI 3.1 (and of JSON Schema 2020-12, its schema dialect) that Ninefold
 * writes. Precise where the generator and the docs page read them; open (`x-` extensions,
 * index signatures) where the standard is.
 */

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  $ref?: string;
  title?: string;
  description?: string;
  type?: JsonType | readonly JsonType[];
  enum?: readonly (string | number | boolean | null)[];
  const?: string | number | boolean | null;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  default?: unknown;
  readOnly?: boolean;
  contentMediaType?: string;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  allOf?: readonly JsonSchema[];
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
  examples?: readonly unknown[];
  [extension: `x-${string}`]: unknown;
}

export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface MediaTypeObject {
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
  /** The catalogue codes a problem response of this status can carry. */
  'x-error-codes'?: readonly string[];
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content: Record<string, MediaTypeObject>;
}

export type SecurityRequirement = Record<string, readonly string[]>;

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  parameters?: readonly ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
  security?: readonly SecurityRequirement[];
  /** The spec's custom call this operation serves, by name. */
  'x-ninefold-call'?: string;
  /** Roles that may make a custom call. */
  'x-roles'?: readonly string[];
  /** The workflow transition this operation takes, by name. */
  'x-transition'?: string;
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>> & {
  parameters?: readonly ParameterObject[];
};

export type SecuritySchemeObject =
  | { type: 'apiKey'; in: 'cookie' | 'header' | 'query'; name: string; description?: string }
  | { type: 'http'; scheme: string; bearerFormat?: string; description?: string };

export interface TagObject {
  name: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi: '3.1.1';
  jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema';
  info: { title: string; version: string; description?: string };
  servers: readonly { url: string; description?: string }[];
  tags: readonly TagObject[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses?: Record<string, ResponseObject>;
    securitySchemes: Record<string, SecuritySchemeObject>;
  };
  security: readonly SecurityRequirement[];
  /** The whole error catalogue: built-in codes, then the spec's own. */
  'x-error-catalogue': readonly ErrorCatalogueEntry[];
}

export interface ErrorCatalogueEntry {
  code: string;
  status: number;
  title: string;
  /** What the user reads when the thrower gives no detail. */
  message: string;
}
