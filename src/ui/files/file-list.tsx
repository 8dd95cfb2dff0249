import type { ShownFile, ShownFiles } from './shown-file';

/**
 * A field's files on a detail page or in a thread item: each by name (a download link) and size,
 * an image by its thumbnail linking to the original too. Ids the page has no descriptor for (a
 * file deleted meanwhile) are left out; a name link downloads, as the API door answers it.
 */
export function FileList({ ids, files }: { ids: readonly number[]; files: ShownFiles }) {
  const shown = ids.map((id) => files[id]).filter((file): file is ShownFile => file !== undefined);
  if (shown.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-3">
      {shown.map((file) => (
        <li key={file.id} className="flex max-w-full min-w-0 flex-col gap-1 text-sm" data-file-id={file.id}>
          {file.thumbnail ? (
            <a href={file.url} className="block w-fit rounded-md border border-zinc-200 bg-zinc-50 p-1 hover:border-accent-500">
              <img
                src={file.thumbnail.url}
                alt={file.name}
                width={file.thumbnail.width}
                height={file.thumbnail.height}
                loading="lazy"
                className="h-auto max-h-40 w-auto max-w-full rounded"
              />
            </a>
          ) : null}
          <span className="min-w-0 break-all">
            <a href={file.url} download={file.name} className="text-accent-700 hover:underline">
              {file.name}
            </a>{' '}
            <span className="whitespace-nowrap text-zinc-500">({file.sizeText})</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
