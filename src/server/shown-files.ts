import 'server-only';
import { describeRecordFiles, fileToWire } from '@/api/file-wire';
import type { Engine } from '@/engine/engine';
import { formatBytes } from '@/engine/files/byte-size';
import type { RecordData } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import type { ShownFiles } from '@/ui/files/shown-file';

/**
 * The files of records as pages show them, from the engine's descriptors (one query for the
 * page): only ids ops returned, so only fields the viewer may read. The thumbnail is named only
 * when its size is known, so an image never shifts the page as it loads.
 */
export async function shownFilesOf(engine: Engine, entity: EntityModel, records: readonly RecordData[]): Promise<ShownFiles> {
  const described = await describeRecordFiles(engine, entity, records);
  return Object.fromEntries(
    [...described.values()].map((meta) => {
      const wire = fileToWire(meta);
      return [
        meta.id,
        {
          id: meta.id,
          name: meta.name,
          sizeText: formatBytes(meta.size),
          url: wire.url,
          ...(wire.thumbnailUrl && meta.thumbnailSize ? { thumbnail: { url: wire.thumbnailUrl, ...meta.thumbnailSize } } : {}),
        },
      ];
    }),
  );
}
