import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, seedEmptyPglite, testModel } from '@testing/engine/ops';
import { forEachDatabase, type TestDatabase } from '@testing/engine/store';
import { assembleEngine } from '../assemble-engine';
import type { Actor } from '../ground/actor';
import { openStore } from '../store/open-store';
import { syncSchema } from '../store/schema/sync';
import type { Store } from '../store/types';
import { exportBackup } from './export';
import type { BackupHeader } from './format';
import { importBackup } from './import';

/*
 * Files in a backup: their rows and their bytes (PostgreSQL's chunks) go out and come back, a few
 * chunks per line batch, and a restored database serves the same bytes to the same people.
 */
forEachDatabase('backup: files', (database: TestDatabase) => {
  let source: TestEngine;
  let target: Store;
  let customer: Actor;
  let backup: string[];
  // Several chunks (64 KB each) and a part of one, of text (the field takes text, not any bytes).
  const bytes = Buffer.from(randomBytes((3 * 64 * 1024 + 1234) / 2).toString('hex'));
  let fileId = 0;

  beforeAll(async () => {
    source = await openTestEngine(database, testModel);
    customer = await createActor(source.store.db, ['customer'], 'Customer Backed Up');
    const staged = await source.files.stage(customer, { name: 'dump.txt', source: Readable.from([bytes]) }, source.files.uploadLimits());
    fileId = staged.id;
    await source.ops.create(customer, 'ticket', { subject: 'With a file to keep', attachments: String(fileId) });

    backup = [];
    for await (const line of exportBackup(source.store.db, { kind: source.store.kind })) backup.push(line);
    const options = await database.freshOptions();
    if (database.kind === 'pglite') await seedEmptyPglite(options.dataDir);
    target = await openStore(options);
    await syncSchema(target, testModel);
    await importBackup(
      target.db,
      (async function* () {
        yield* backup;
      })(),
      { model: testModel },
    );
  }, 180_000);
  afterAll(async () => {
    await target?.close();
  });

  it('copies the files and their bytes, and the restored database serves the same bytes', async () => {
    const header = JSON.parse(backup[0]!) as BackupHeader;
    const order = header.tables.map((t) => t.name);
    expect(order.indexOf('nf_file_chunk')).toBeGreaterThan(order.indexOf('nf_file'));
    expect(header.tables.find((t) => t.name === 'nf_file_chunk')?.rows).toBeGreaterThanOrEqual(4);
    // A chunk a line, never a page of them: the longest line is one chunk's hex and the row around it.
    expect(Math.max(...backup.map((line) => line.length))).toBeLessThan(2 * 64 * 1024 + 1000);

    const restored = assembleEngine(testModel, target);
    const file = await restored.files.open(customer, fileId, 'original');
    expect(file.meta).toMatchObject({ name: 'dump.txt', size: bytes.length });
    const chunks: Buffer[] = [];
    for await (const chunk of file.read()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });
});
