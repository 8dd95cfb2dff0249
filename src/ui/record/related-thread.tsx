import type { RecordData, ReferenceTitles } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import type { RelatedModel } from '@/engine/spec/screens/detail-model';
import { Badge } from '../badge';
import { TimeValue } from '../field-value';
import { formatDateTime } from '../format';
import { MarkdownText } from '../markdown';
import { FileList } from '../files/file-list';
import type { ShownFiles } from '../files/shown-file';

/**
 * A conversation, oldest first: each item with its author (from the names ops.list loaded with
 * the page, in one query), its time, its text and its markers (an internal note). Prints only
 * what ops handed over: rows and fields the viewer may not read are not there.
 */
export function RelatedThread({
  section,
  entity,
  rows,
  references,
  zone,
  files,
}: {
  section: RelatedModel;
  entity: EntityModel;
  rows: readonly RecordData[];
  references: ReferenceTitles;
  /** The viewer's zone (src/server/viewer-zone.ts). */
  zone: string;
  /** The items' files (src/server/shown-files.ts). */
  files: ShownFiles;
}) {
  const body = section.body ? entity.fieldsByName[section.body] : undefined;
  // Each item's attachments under its text: only fields ops handed over hold ids.
  const fileFields = entity.fields.filter((field) => field.files !== undefined);
  return (
    <ol className="space-y-3" aria-label={section.label}>
      {rows.map((row) => {
        const author = typeof row.createdBy === 'number' ? references.createdBy?.[row.createdBy] : undefined;
        const text = body ? row[body.name] : undefined;
        const badges = section.badges.filter((name) => row[name] === true);
        return (
          <li
            key={row.id}
            data-record-id={row.id}
            className={
              badges.length > 0 ? 'rounded-md border border-amber-200 bg-amber-50/60 p-3' : 'rounded-md border border-zinc-200 p-3'
            }
          >
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-500">
              <span className="font-medium text-zinc-900">{author ?? 'Someone'}</span>
              <TimeValue time={formatDateTime(row.createdAt, zone)} />
              {badges.map((name) => (
                <Badge key={name} tone="warning">
                  {entity.fieldsByName[name]?.label ?? name}
                </Badge>
              ))}
            </div>
            {typeof text === 'string' && text !== '' ? (
              body?.type === 'markdown' ? (
                <div className="mt-1 break-words">
                  <MarkdownText>{text}</MarkdownText>
                </div>
              ) : (
                <p className="mt-1 text-sm break-words whitespace-pre-wrap text-zinc-800">{text}</p>
              )
            ) : null}
            {fileFields.map((field) => {
              const ids = row[field.name];
              return Array.isArray(ids) && ids.length > 0 ? (
                <div key={field.name} className="mt-2">
                  <FileList ids={ids as readonly number[]} files={files} />
                </div>
              ) : null;
            })}
          </li>
        );
      })}
    </ol>
  );
}
