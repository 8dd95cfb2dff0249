import { beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { testModel } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import type { Actor } from '../ground/actor';

const quiet = { start: () => {}, advance: () => {}, stop: () => {} };

/*
 * The seeder's files: some tickets and comments of the helpdesk get a small generated file of a
 * type the field takes (a PNG with its thumbnail, a text, a PDF), attached as an upload would be,
 * served to whoever may read the record.
 */
forEachDatabase('seed: demo files', (database) => {
  let engine: TestEngine;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    await engine.seedDemo(50, quiet);
  }, 180_000);

  it('attaches small files of accepted types, readable through the records', async () => {
    const rows = await engine.store.db.selectFrom('nf_file').selectAll().execute();
    expect(rows.length).toBeGreaterThan(5);
    expect(new Set(rows.map((r) => r.state))).toEqual(new Set(['attached']));
    expect(new Set(rows.map((r) => r.content_type))).toEqual(new Set(['image/png', 'text/plain', 'application/pdf']));
    const image = rows.find((r) => r.content_type === 'image/png')!;
    expect(image).toMatchObject({ has_thumbnail: true, thumbnail_width: 96, thumbnail_height: 64 });

    // Its author reads it back, the bytes and the thumbnail, as the API door would serve them.
    const user = await engine.store.db
      .selectFrom('nf_user')
      .selectAll()
      .where('id', '=', Number(image.uploaded_by))
      .executeTakeFirstOrThrow();
    const author: Actor = { userId: Number(user.id), email: String(user.email), name: String(user.name), roles: user.roles as string[] };
    const original = await engine.files.open(author, Number(image.id), 'original');
    const chunks: Buffer[] = [];
    for await (const chunk of original.read()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(1, 4).toString()).toBe('PNG');
    expect((await engine.files.open(author, Number(image.id), 'thumbnail')).contentType).toBe('image/webp');
    // Its record's history says it came with it, by name.
    const history = await engine.ops.history(author, String(image.entity), Number(image.record_id));
    expect(history.entries.at(-1)?.changes[String(image.field)]?.to).toEqual([Number(image.id)]);
    expect(history.references[String(image.field)]?.[Number(image.id)]).toBe(image.name);
  });
});
