import { Readable } from 'node:stream';
import sharp from 'sharp';
import { beforeAll, expect, it, vi } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import { knownEntity } from '@/ui/known-names';
import { shownFilesOf } from './shown-files';

vi.mock('server-only', () => ({}));

/*
 * The files a page shows, from the engine's descriptors: a PNG with its thumbnail's size (set on
 * the page's <img>, so it does not jump), a PDF by name and size only, and nothing for a field
 * ops did not hand over.
 */
forEachDatabase('files as pages show them', (database) => {
  let engine: TestEngine;
  let customer: Actor;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    customer = await createActor(engine.store.db, ['customer'], 'Customer Shown Files');
  });

  it('gives an image its thumbnail with its size, a PDF its name and size', async () => {
    const png = await sharp({ create: { width: 640, height: 400, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const limits = { maxBytes: 10_000_000, accept: null, field: 'attachments' };
    const image = await engine.files.stage(customer, { name: 'screen.png', source: Readable.from([png]) }, limits);
    const doc = await engine.files.stage(customer, { name: 'report.pdf', source: Readable.from([pdf]) }, limits);
    const created = await engine.ops.create(customer, 'ticket', { subject: 'With files', attachments: `${image.id},${doc.id}` });
    const { record } = await engine.ops.get(customer, 'ticket', created.id);
    const ticket = knownEntity(engine.model, 'ticket');

    const shown = await shownFilesOf(engine, ticket, [record]);
    expect(shown[image.id]).toEqual({
      id: image.id,
      name: 'screen.png',
      sizeText: expect.stringMatching(/^\d+(\.\d)? (bytes|kB)$/),
      url: `/api/v1/files/${image.id}`,
      thumbnail: { url: `/api/v1/files/${image.id}/thumbnail`, width: 320, height: 200 },
    });
    expect(shown[doc.id]).toEqual({ id: doc.id, name: 'report.pdf', sizeText: `${pdf.length} bytes`, url: `/api/v1/files/${doc.id}` });

    // A record as ops hands it to a viewer who may not read the field: no ids, so no files.
    const { attachments: _hidden, ...redacted } = record;
    expect(
      await shownFilesOf(engine, ticket, [
        { ...redacted, id: record.id, version: record.version, createdAt: record.createdAt, updatedAt: record.updatedAt },
      ]),
    ).toEqual({});
  });
});
