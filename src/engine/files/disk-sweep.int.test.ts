import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import { assembleEngine } from '../assemble-engine';
import type { Engine } from '../engine';
import type { Actor } from '../ground/actor';

/*
 * Files on disk (NINEFOLD_FILES_DIR): deleting a record deletes its files' rows in the
 * transaction (the pair trigger), which cannot delete files on disk; the scheduler's sweep does.
 */
forEachDatabase('files on disk: the sweep', (database) => {
  let base: TestEngine;
  let engine: Engine;
  let customer: Actor;
  const directory = mkdtempSync(path.join(tmpdir(), 'nf-files-'));

  beforeAll(async () => {
    base = await openTestEngine(database, testModel);
    engine = assembleEngine(testModel, base.store, { filesDir: directory });
    customer = await createActor(base.store.db, ['customer'], 'Customer On Disk');
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const upload = (name: string, bytes: Buffer) =>
    engine.files.stage(customer, { name, source: Readable.from([bytes]) }, engine.files.uploadLimits());

  it('deletes the bytes of files whose rows went with their record, and keeps the others', async () => {
    const { default: sharp } = await import('sharp');
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const image = await upload('shot.png', png);
    const kept = await upload('kept.txt', Buffer.from('still staged\n'));
    const created = await engine.ops.create(customer, 'ticket', { subject: 'On disk', attachments: String(image.id) });
    const at = (name: string) => path.join(directory, name);
    expect([existsSync(at(String(image.id))), existsSync(at(`${image.id}.thumbnail`))]).toEqual([true, true]);

    // Deleted as a cascade from another record deletes it: in the database, the trigger takes the file's row.
    await base.store.db.deleteFrom('ticket').where('id', '=', created.id).execute();
    expect(await engine.files.describe([image.id])).toEqual(new Map());
    expect(existsSync(at(String(image.id)))).toBe(true);

    // Nothing staged is old enough to go: only the orphans do.
    expect(await engine.files.sweep(new Date(0))).toBe(1);
    expect([existsSync(at(String(image.id))), existsSync(at(`${image.id}.thumbnail`))]).toEqual([false, false]);
    expect(existsSync(at(String(kept.id)))).toBe(true);
  });
});
