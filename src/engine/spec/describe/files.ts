import { visitorsMayReadFiles } from '../../access/policy';
import { formatBytes } from '../../files/byte-size';
import { THUMBNAIL_PIXELS } from '../../files/file-limits';
import type { AppModel, EntityModel, FieldModel } from '../model';
import type { ConstantRef, FileField, FilesField } from '../types';

import { inSentence } from '../naming';
import { hasFileFields } from '../file-fields';
import { code, isConstantRef } from './text';

/**
 * What a file field's notes say (`/spec` and describe): how many files, how large, which types
 * (read from the content), who downloads them and how, and that they go with their record. The
 * numbers are the model's (constants resolved), each constant named beside its value.
 */
export function fileFieldText(field: FieldModel, entity: EntityModel): string {
  const limits = field.files;
  if (!limits) return '';
  const spec = field.spec as FileField | FilesField;
  const named = (value: number | ConstantRef | undefined) =>
    value !== undefined && isConstantRef(value) ? ` (constant ${code(value.$constant)})` : '';
  const count = spec.type === 'file' ? 'one file' : `at most ${limits.maxItems} files${'maxItems' in spec ? named(spec.maxItems) : ''}`;
  const accepted = limits.accept ? `accepted types, read from the content: ${limits.accept.join(', ')}` : 'any type';
  return [
    `${count}, each at most ${formatBytes(limits.maxBytes)}${named(spec.maxBytes)}`,
    accepted,
    `downloaded only by who may read the ${inSentence(entity.label)} and this field (404 otherwise), as an attachment except PNG, JPEG, GIF and WebP images (shown in place, with a thumbnail of at most ${THUMBNAIL_PIXELS} px a side)`,
    `deleted with the ${inSentence(entity.label)} or when taken off it`,
  ].join('; ');
}

/** How files come in and go out, once for the whole spec (when some entity has a file field). */
export function filesParagraph(model: AppModel): string | null {
  if (!hasFileFields(model)) return null;
  return [
    `Files are uploaded with ${code('POST /api/v1/files')} (multipart) and then named by id in a record's write, or sent as parts of a multipart write (${code('POST')} or ${code('PATCH')} of the record, a form, a reply); an upload is its uploader's alone until attached, and one never attached is deleted after a day.`,
    'A write refused keeps none of the files it brought.',
    `The type is read from the content, never from the name; a record's files are downloaded at ${code('/api/v1/files/<id>')} (and ${code('/thumbnail')} for images), only by who may read the record and the field.`,
    visitorsMayReadFiles(model)
      ? 'Visitors who are not signed in download the files of the records and fields the public may read, without credentials; uploads need a sign-in.'
      : 'Downloads and uploads need a sign-in.',
    'Lists and CSV exports show files by name, the history says which were attached and removed; detail pages and thread items show each with its size and a download link, an image by its thumbnail linking to the original.',
  ].join(' ');
}
