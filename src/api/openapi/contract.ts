import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { HTTP_METHODS, type HttpMethod, type JsonSchema, type OpenApiDocument, type OperationObject, type ResponseObject } from './types';

/**
 * Contract tests: every response an API test receives is checked against the OpenAPI document.
 * The checker finds the operation (by method and path template), the documented response for
 * the status, and then checks the content type, the required headers and the body (JSON Schema
 * 2020-12, with ajv). Anything the document does not say is a failure, with a message that says
 * what differs.
 */

/** A response as the tests see it: `body` parsed already, or the raw text. */
export interface ContractResponse {
  readonly status: number;
  readonly headers?: Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body?: unknown;
}

/** What a response was matched to. */
export interface ContractMatch {
  /** The path template, e.g. "/tickets/{id}"; null for an address no path matches (404). */
  readonly path: string | null;
  /** null for the generic answers: 404 for an unknown address, 405 and OPTIONS for an unknown method. */
  readonly operationId: string | null;
  readonly status: number;
}

export interface ContractChecker {
  /** Throws ContractError when the response is not what the document says. */
  check(method: string, url: string | URL, response: ContractResponse): ContractMatch;
  /** Reads a fetch Response (from a clone, so the caller can still read it), checks it and gives its body. */
  checkResponse(method: string, url: string | URL, response: Response): Promise<{ match: ContractMatch; body: unknown }>;
}

export class ContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractError';
  }
}

/** The id under which the document's components are known to ajv. */
const DOCUMENT_ID = 'https://ninefold.invalid/openapi.json';

interface Route {
  readonly template: string;
  /** Literal segments, and null for a parameter (one whole segment each). */
  readonly segments: readonly (string | null)[];
  /** "0" per literal segment, "1" per parameter: the lower sorts first, as the REST door routes. */
  readonly rank: string;
  readonly isCall: boolean;
  readonly operations: Partial<Record<HttpMethod, OperationObject>>;
}

function compileRoute(template: string, operations: Partial<Record<HttpMethod, OperationObject>>): Route {
  const segments = template
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? null : segment));
  return {
    template,
    segments,
    rank: segments.map((segment) => (segment === null ? '1' : '0')).join(''),
    isCall: Object.values(operations).some((op) => op?.['x-ninefold-call'] !== undefined),
    operations,
  };
}

/** The path as decoded segments, as the REST door reads it; null when it has an empty or undecodable one. */
function segmentsOf(path: string): string[] | null {
  const raw = path.replace(/^\//, '').split('/');
  try {
    const segments = raw.map((segment) => decodeURIComponent(segment));
    return segments.some((segment) => segment === '') ? null : segments;
  } catch {
    return null;
  }
}

function matches(route: Route, segments: readonly string[]): boolean {
  return route.segments.length === segments.length && route.segments.every((part, index) => part === null || part === segments[index]);
}

/** `$ref`s of the document point into it: "#/components/..." becomes "<document id>#/components/...". */
function anchorRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anchorRefs);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${DOCUMENT_ID}${value}` : anchorRefs(value),
    ]),
  );
}

function headerOf(headers: ContractResponse['headers'], name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(', ');
  }
  return null;
}

function formatErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((error) => {
      const where = error.instancePath || '(the body)';
      const params = error.params as Record<string, unknown>;
      const extra =
        'additionalProperty' in params
          ? `: "${String(params.additionalProperty)}"`
          : 'allowedValues' in params
            ? `: ${JSON.stringify(params.allowedValues)}`
            : 'allowedValue' in params
              ? `: ${JSON.stringify(params.allowedValue)}`
              : '';
      return `  ${where} ${error.message}${extra}`;
    })
    .filter((line, index, all) => all.indexOf(line) === index)
    .join('\n');
}

function isEmptyBody(body: unknown): boolean {
  return body === undefined || body === null || body === '';
}

function describeBody(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text === undefined ? 'nothing' : text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export function createContractChecker(document: OpenApiDocument): ContractChecker {
  const basePath = (document.servers[0]?.url ?? '').replace(/\/$/, '');
  const ajv = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: anchorRefs(document.components) });
  const validators = new Map<string, ValidateFunction>();

  // The most specific template first (a literal beats a parameter at the first place they differ:
  // /tickets/open before /tickets/{id}); between equals, a custom call before a generated path.
  const routes = Object.entries(document.paths)
    .map(([template, item]) => compileRoute(template, Object.fromEntries(HTTP_METHODS.filter((m) => item[m]).map((m) => [m, item[m]]))))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : Number(b.isCall) - Number(a.isCall)));

  const genericProblem = (status: number, code: string): ResponseObject => ({
    description: `${code} (any address)`,
    headers: status === 429 ? { 'Retry-After': { required: true, schema: { type: 'integer' } } } : undefined,
    content: {
      'application/problem+json': {
        schema: {
          allOf: [{ $ref: '#/components/schemas/Problem' }],
          type: 'object',
          properties: { status: { const: status }, code: { const: code } },
        },
      },
    },
  });
  /** What any address answers before it is routed: the rate limit per client address, or a failure to start. */
  const ANY_ADDRESS: Readonly<Record<number, string>> = { 429: 'RATE_LIMITED', 500: 'INTERNAL', 503: 'SERVICE_UNAVAILABLE' };

  function validatorFor(key: string, schema: JsonSchema): ValidateFunction {
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(anchorRefs(schema) as object);
      validators.set(key, validate);
    }
    return validate;
  }

  function checkAgainst(label: string, key: string, expected: ResponseObject, response: ContractResponse): void {
    const where = `${label} → ${response.status}`;
    for (const [name, header] of Object.entries(expected.headers ?? {})) {
      const value = headerOf(response.headers, name);
      if (value === null) {
        if (header.required) throw new ContractError(`${where}: the header ${name} is missing (the document requires it).`);
        continue;
      }
      if (header.schema.type === 'string' && header.schema.pattern && !new RegExp(header.schema.pattern).test(value)) {
        throw new ContractError(`${where}: the header ${name} is ${JSON.stringify(value)}, which does not match ${header.schema.pattern}.`);
      }
      if (header.schema.type === 'integer' && !/^\d+$/.test(value)) {
        throw new ContractError(`${where}: the header ${name} is ${JSON.stringify(value)}, not a whole number.`);
      }
    }

    const content = expected.content;
    if (!content || Object.keys(content).length === 0) {
      if (!isEmptyBody(response.body))
        throw new ContractError(`${where}: the document says no body, but the response has ${describeBody(response.body)}.`);
      return;
    }
    const contentType = headerOf(response.headers, 'content-type');
    if (!contentType) throw new ContractError(`${where}: no content-type header (expected ${Object.keys(content).join(' or ')}).`);
    const [mediaType = '', ...params] = contentType.split(';').map((part) => part.trim());
    // A download is documented as */* (any type the file was read as) or as its one type.
    const media = content[mediaType.toLowerCase()] ?? content['*/*'];
    if (!media) {
      throw new ContractError(`${where}: content-type is ${contentType}, but the document says ${Object.keys(content).join(' or ')}.`);
    }
    const charset = params.find((p) => /^charset=/i.test(p));
    if (charset && !/^charset="?utf-8"?$/i.test(charset)) throw new ContractError(`${where}: JSON must be sent as UTF-8, not ${charset}.`);

    let body = response.body;
    if (typeof body === 'string' && /(^application\/json$)|(\+json$)/i.test(mediaType)) {
      try {
        body = JSON.parse(body);
      } catch {
        throw new ContractError(`${where}: the body is not JSON: ${describeBody(body)}`);
      }
    }
    const validate = validatorFor(`${key} ${mediaType}`, media.schema);
    if (!validate(body)) {
      const schemaName = media.schema.$ref?.split('/').pop() ?? media.schema.allOf?.[0]?.$ref?.split('/').pop() ?? 'the documented schema';
      throw new ContractError(
        `${where}: the body does not match ${schemaName}:\n${formatErrors(validate.errors)}\nBody: ${describeBody(body)}`,
      );
    }

    // The ETag of a record is its version, quoted: a client sends it back as If-Match.
    const etag = headerOf(response.headers, 'etag');
    const version = typeof body === 'object' && body !== null ? (body as { version?: unknown }).version : undefined;
    if (etag !== null && expected.headers?.ETag && typeof version === 'number' && etag !== `"${version}"`) {
      throw new ContractError(`${where}: ETag ${etag} is not the record's version "${version}".`);
    }
  }

  function check(method: string, url: string | URL, response: ContractResponse): ContractMatch {
    const verb = method.toUpperCase();
    const { pathname } = new URL(String(url), 'http://localhost');
    const label = `${verb} ${pathname}`;
    if (!pathname.startsWith(`${basePath}/`) && pathname !== basePath) {
      throw new ContractError(`${label}: not an address of this API (${basePath}).`);
    }
    const path = pathname.slice(basePath.length) || '/';
    const segments = segmentsOf(path);
    const route = segments ? routes.find((r) => matches(r, segments)) : undefined;

    if (!route) {
      const code = response.status === 404 ? 'NOT_FOUND' : ANY_ADDRESS[response.status];
      if (code) {
        checkAgainst(label, `${response.status} unknown path`, genericProblem(response.status, code), response);
        return { path: null, operationId: null, status: response.status };
      }
      throw new ContractError(`${label} → ${response.status}: no path of the document matches ${path}.`);
    }

    const lower = (verb === 'HEAD' ? 'get' : verb.toLowerCase()) as HttpMethod;
    const operation = route.operations[lower];
    if (!operation) {
      const allowed = Object.keys(route.operations).map((m) => m.toUpperCase());
      const allow = headerOf(response.headers, 'allow');
      const anyAddressCode = ANY_ADDRESS[response.status];
      if (anyAddressCode) {
        checkAgainst(label, `${response.status} ${route.template}`, genericProblem(response.status, anyAddressCode), response);
        return { path: route.template, operationId: null, status: response.status };
      }
      if (response.status === 405 || (verb === 'OPTIONS' && response.status === 204)) {
        if (!allow) throw new ContractError(`${label} → ${response.status}: the Allow header is missing.`);
        const listed = allow
          .split(',')
          .map((m) => m.trim().toUpperCase())
          .filter(Boolean);
        const missing = allowed.filter((m) => !listed.includes(m));
        if (missing.length > 0)
          throw new ContractError(`${label} → ${response.status}: Allow is "${allow}" but the document also has ${missing.join(', ')}.`);
        if (response.status === 405) checkAgainst(label, `405 ${route.template}`, genericProblem(405, 'METHOD_NOT_ALLOWED'), response);
        return { path: route.template, operationId: null, status: response.status };
      }
      throw new ContractError(`${label} → ${response.status}: ${route.template} has no ${verb} operation (it has ${allowed.join(', ')}).`);
    }

    const status = String(response.status);
    const expected = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
    const opLabel = `${label} (${operation.operationId})`;
    if (!expected) {
      const code = typeof response.body === 'object' && response.body !== null ? (response.body as { code?: unknown }).code : undefined;
      throw new ContractError(
        `${opLabel}: status ${status}${typeof code === 'string' ? ` (${code})` : ''} is not documented; documented: ${Object.keys(operation.responses).join(', ')}.`,
      );
    }
    if (verb === 'HEAD') {
      checkAgainst(opLabel, `${route.template} head ${status}`, { ...expected, content: undefined }, { ...response, body: undefined });
    } else {
      checkAgainst(opLabel, `${route.template} ${lower} ${status}`, expected, response);
    }
    return { path: route.template, operationId: operation.operationId, status: response.status };
  }

  async function checkResponse(method: string, url: string | URL, response: Response): Promise<{ match: ContractMatch; body: unknown }> {
    const text = await response.clone().text();
    const contentType = response.headers.get('content-type') ?? '';
    let body: unknown = text;
    if (text !== '' && /^application\/([^;]+\+)?json\s*(;|$)/i.test(contentType)) {
      try {
        body = JSON.parse(text);
      } catch {
        throw new ContractError(`${method.toUpperCase()} ${String(url)} → ${response.status}: the body is not JSON: ${describeBody(text)}`);
      }
    }
    const match = check(method, url, { status: response.status, headers: response.headers, body });
    return { match, body };
  }

  return { check, checkResponse };
}
