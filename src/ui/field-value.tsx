import Link from 'next/link';
import type { FieldModel } from '@/engine/spec/model';
import type { RecordValue } from '@/engine/ground/record-value';
import { markdownExcerpt } from '@/engine/excerpt';
import { formatBoolean, formatDate, formatDateTime, type FormattedTime } from './format';
import { MarkdownText } from './markdown';
import { EnumValue } from './enum-value';
import { formatFieldNumber } from '@/engine/numbers/format';
import { FileList } from './files/file-list';
import type { ShownFiles } from './files/shown-file';

export function Empty() {
  return <span className="text-zinc-400">—</span>;
}

export function TimeValue({ time }: { time: FormattedTime | null }) {
  if (!time) return <Empty />;
  return (
    <time dateTime={time.iso} className="whitespace-nowrap tabular-nums">
      {time.text}
    </time>
  );
}

/** A referenced record or user, by its title; `#id` when the title is not known. */
export function ReferenceValue({ id, title, href }: { id: number; title: string | undefined; href?: string }) {
  const text = title ?? `#${id}`;
  return href ? (
    <Link href={href} className="text-accent-700 hover:underline">
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

/**
 * One field's value, formatted by its type. `cell` is the short form for tables (Markdown as an
 * excerpt); `detail` is the full form (Markdown rendered, links clickable).
 */
export function FieldValue({
  field,
  value,
  titles,
  targetPlural,
  variant,
  zone,
  locale,
  files,
}: {
  field: FieldModel;
  value: RecordValue | undefined;
  /** Titles of the referenced records of this field, by id. */
  titles?: Readonly<Record<number, string>>;
  /** URL segment of the referenced entity, for links. */
  targetPlural?: string;
  variant: 'cell' | 'detail';
  /** The viewer's zone, for date-times (src/server/viewer-zone.ts). */
  zone: string;
  /** The locale numbers and amounts are written in (the model's `locale`). */
  locale: string;
  /** The page's files (src/server/shown-files.ts): a detail shows each with its size and thumbnail. */
  files?: ShownFiles;
}) {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    return <Empty />;
  }
  const spec = field.spec;
  switch (spec.type) {
    case 'references':
    case 'users': {
      // Ops give only the ids of records the viewer may read, each with its title: all are links.
      // A set of users is names, without links, as a user field shows its user.
      const ids = value as readonly number[];
      const linked = spec.type === 'references' ? targetPlural : undefined;
      return (
        <ul className={variant === 'cell' ? 'inline' : 'flex flex-wrap gap-x-3 gap-y-1'}>
          {ids.map((id, index) => (
            <li key={id} className={variant === 'cell' ? 'inline' : undefined}>
              <ReferenceValue id={id} title={titles?.[id]} href={linked && titles?.[id] !== undefined ? `/${linked}/${id}` : undefined} />
              {variant === 'cell' && index < ids.length - 1 ? ', ' : null}
            </li>
          ))}
        </ul>
      );
    }
    case 'file':
    case 'files': {
      // Each file by its name (ops' titles), downloaded through the API with the viewer's session,
      // which answers only who may read this record and field.
      const ids = value as readonly number[];
      if (variant === 'detail' && files) return <FileList ids={ids} files={files} />;
      return (
        <ul className={variant === 'cell' ? 'inline' : 'flex flex-wrap gap-x-3 gap-y-1'}>
          {ids.map((id, index) => (
            <li key={id} className={variant === 'cell' ? 'inline' : undefined}>
              <a href={`/api/v1/files/${id}`} className="text-accent-700 hover:underline" download>
                {titles?.[id] ?? `File #${id}`}
              </a>
              {variant === 'cell' && index < ids.length - 1 ? ', ' : null}
            </li>
          ))}
        </ul>
      );
    }
    case 'boolean':
      return <span>{formatBoolean(value)}</span>;
    case 'enum':
      return <EnumValue spec={spec} value={String(value)} />;
    case 'date':
      return <TimeValue time={formatDate(value)} />;
    case 'datetime':
      return <TimeValue time={formatDateTime(value, zone)} />;
    case 'markdown':
      return variant === 'cell' ? (
        <span className="text-zinc-600">{markdownExcerpt(String(value), 80)}</span>
      ) : (
        <MarkdownText>{String(value)}</MarkdownText>
      );
    case 'reference':
    case 'user': {
      const id = Number(value);
      const title = titles?.[id];
      // Ops title only the records the viewer may read: any other is shown as its id, without a link.
      const href = spec.type === 'reference' && targetPlural && title !== undefined ? `/${targetPlural}/${id}` : undefined;
      return <ReferenceValue id={id} title={title} href={href} />;
    }
    case 'url': {
      const text = String(value);
      if (variant === 'detail' && /^https?:\/\//i.test(text)) {
        return (
          <a href={text} rel="noopener noreferrer nofollow" className="text-accent-700 underline underline-offset-2 break-all">
            {text}
          </a>
        );
      }
      return <span className="break-all">{text}</span>;
    }
    case 'email':
      return variant === 'detail' ? (
        <a href={`mailto:${String(value)}`} className="text-accent-700 underline underline-offset-2">
          {String(value)}
        </a>
      ) : (
        <span>{String(value)}</span>
      );
    case 'integer':
    case 'decimal':
    case 'money':
      return <span className="whitespace-nowrap tabular-nums">{formatFieldNumber(field, value, locale) ?? String(value)}</span>;
    default:
      return <span className="break-words">{value instanceof Date ? value.toISOString() : String(value)}</span>;
  }
}
