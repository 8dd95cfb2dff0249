import { visitorsMayReadFiles } from '@/engine/access/policy';
import type { AppModel } from '@/engine/spec/model';
import { THUMBNAIL_PIXELS } from '@/engine/files/file-limits';
import { MAX_FILES_PER_UPLOAD } from '../files';
import { OPERATION_ERRORS } from './errors';
import { schemaRef } from './schemas';
import type { HeaderObject, JsonSchema, OperationObject, ParameterObject, PathItemObject, ResponseObject } from './types';

export const FILES_TAG = 'files';

/** The upload's answer: the files staged, each to be named by id in a record's write. */
export const UPLOADED_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { items: { type: 'array', items: schemaRef('File'), minItems: 1, maxItems: MAX_FILES_PER_UPLOAD } },
  required: ['items'],
  additionalProperties: false,
};

const BINARY: JsonSchema = { type: 'string', format: 'binary' };

const DOWNLOAD_HEADERS: Record<string, HeaderObject> = {
  ETag: {
    description: "The SHA-256 of the file's bytes, quoted: send it as If-None-Match (304 when unchanged).",
    required: true,
    schema: { type: 'string' },
  },
  'Content-Disposition': {
    description: '`attachment` with the file name, except PNG, JPEG, GIF and WebP images and thumbnails (`inline`).',
    required: true,
    schema: { type: 'string', pattern: '^(attachment|inline); filename=' },
  },
  'X-Content-Type-Options': {
    description: 'Never guessed from the bytes by the browser.',
    required: true,
    schema: { type: 'string', pattern: '^nosniff$' },
  },
  'Cache-Control': {
    description: 'Private to the caller: a shared cache never keeps it; the browser asks again (304).',
    required: true,
    schema: { type: 'string', pattern: '^private, no-cache$' },
  },
  'Accept-Ranges': {
    description: 'Byte ranges may be asked for with Range.',
    required: true,
    schema: { type: 'string', pattern: '^bytes$' },
  },
};

const RANGE: ParameterObject = {
  name: 'Range',
  in: 'header',
  required: false,
  description: 'One byte range (`bytes=0-1023`, `bytes=1024-`, `bytes=-500`): answered 206 with that part, 416 past the end.',
  schema: { type: 'string' },
};
const IF_NONE_MATCH: ParameterObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The ETag of a copy already held: 304 without a body when it is still the file.',
  schema: { type: 'string' },
};
const FILE_ID: ParameterObject = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The id of the file (from a record, or from the upload).',
  schema: { type: 'integer', minimum: 1 },
};

function downloadResponses(what: string, mediaType: string): Record<string, ResponseObject> {
  const content = { [mediaType]: { schema: BINARY } };
  return {
    '200': {
      description: what,
      headers: { ...DOWNLOAD_HEADERS, 'Content-Length': { required: true, schema: { type: 'integer' } } },
      content,
    },
    '206': {
      description: 'The range asked for.',
      headers: {
        ...DOWNLOAD_HEADERS,
        'Content-Range': {
          description: '`bytes <start>-<end>/<size>`',
          required: true,
          schema: { type: 'string', pattern: '^bytes \\d+-\\d+/\\d+$' },
        },
      },
      content,
    },
    '304': { description: 'Unchanged since the ETag sent in If-None-Match.', headers: DOWNLOAD_HEADERS },
  };
}

/**
 * A write with file fields also takes multipart/form-data: the JSON body's fields as text parts
 * (a set's ids one part each), and files as parts named after their file field, staged with that
 * field's limits and attached in the same write (a refused write deletes them).
 */
export function multipartWrite(fields: readonly { readonly name: string }[]): Record<string, { schema: JsonSchema }> {
  if (fields.length === 0) return {};
  return {
    'multipart/form-data': {
      schema: {
        type: 'object',
        description:
          'The fields of the JSON body as text parts; files as parts named after their file field, added to the ids its text parts keep.',
        properties: Object.fromEntries(fields.map((f) => [f.name, { type: 'array', items: BINARY } satisfies JsonSchema])),
      },
    },
  };
}

/**
 * /files: upload (multipart, staged for the caller's next write) and download through the
 * record's access (404 for anyone who may not read the record and the field holding the file).
 * Only in a spec with file fields, as the routes.
 */
export function filePaths(
  model: AppModel,
  operationId: (wanted: string) => string,
  errors: (codes: readonly string[]) => Record<string, ResponseObject>,
): Record<string, PathItemObject> {
  const tags = [FILES_TAG];
  const upload: OperationObject = {
    operationId: operationId('uploadFiles'),
    summary: 'Upload files',
    description: `Up to ${MAX_FILES_PER_UPLOAD} file parts (any part name). Each is kept as an upload of the caller alone until a write of a record names its id in a file field (which checks that field's size and types); one never attached is deleted after a day. The type is read from the content. A refused part deletes every file of the request.`,
    tags,
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'array', items: BINARY, maxItems: MAX_FILES_PER_UPLOAD } },
            required: ['file'],
          },
        },
      },
    },
    responses: {
      '201': { description: 'The files, staged.', content: { 'application/json': { schema: schemaRef('Uploaded') } } },
      ...errors(OPERATION_ERRORS.upload),
    },
  };
  // Served without credentials as a visitor's (the empty requirement) when visitors read a record with files.
  const security: Pick<OperationObject, 'security'> = visitorsMayReadFiles(model)
    ? { security: [{}, { cookieAuth: [] }, { bearerAuth: [] }] }
    : {};
  const download = (id: string, summary: string, what: string, mediaType: string): OperationObject => ({
    operationId: operationId(id),
    summary,
    tags,
    ...security,
    parameters: [RANGE, IF_NONE_MATCH],
    responses: { ...downloadResponses(what, mediaType), ...errors(OPERATION_ERRORS.download) },
  });
  return {
    '/files': { post: upload },
    '/files/{id}': {
      parameters: [FILE_ID],
      get: download('downloadFile', 'Download a file', 'The file, with the content type read from it when it was uploaded.', '*/*'),
    },
    '/files/{id}/thumbnail': {
      parameters: [FILE_ID],
      get: download(
        'downloadThumbnail',
        "An image's thumbnail",
        `A WebP at most ${THUMBNAIL_PIXELS} pixels a side (images only; 404 otherwise).`,
        'image/webp',
      ),
    },
  };
}
