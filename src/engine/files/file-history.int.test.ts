import { Readable } from 'node:stream';
import { beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { forEachDatabase } from '@testing/engine/store';

/*
 * Files in a record's history: the entries name the files attached and removed, by the names
 * they had, though a file taken off is deleted with its row.
 */
forEachDatabase('files in history', (database) => {
  let engine: TestEngine;
  let customer: Actor;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    customer = await createActor(engine.store.db, ['customer'], 'Customer With History');
  });

  const upload = (name: string) =>
    engine.files.stage(customer, { name, source: Readable.from([Buffer.from(`text of ${name}\n`)]) }, engine.files.uploadLimits());

  it('keeps the names of files attached and removed', async () => {
    const first = await upload('first.txt');
    const created = await engine.ops.create(customer, 'ticket', { subject: 'With history', attachments: String(first.id) });
    const report = await upload('report.pdf.txt');
    await engine.ops.update(customer, 'ticket', created.id, { attachments: String(report.id) }, created.version);
    expect(await engine.files.describe([first.id])).toEqual(new Map());

    const { entries, references } = await engine.ops.history(customer, 'ticket', created.id);
    expect(entries.map((e) => [e.action, e.changes.attachments])).toEqual([
      ['update', { from: [first.id], to: [report.id] }],
      ['create', { from: [], to: [first.id] }],
    ]);
    expect(references.attachments).toEqual({ [first.id]: 'first.txt', [report.id]: 'report.pdf.txt' });
  });
});
