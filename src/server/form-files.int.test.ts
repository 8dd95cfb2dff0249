import { Readable } from 'node:stream';
import { beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import { VERSION_INPUT, type RecordFormState } from '@/ui/forms/state';
import { submitCreate, submitUpdate, type Redirect } from './record-actions';
import { submitRelated } from './related-actions';

/*
 * Files posted by the helpdesk's forms (as a browser without JavaScript posts them to the server
 * actions): a ticket opened with a screenshot, a reply with a PDF, an edit that keeps one file and
 * drops another; a refused file or write leaves no file behind.
 */
const EMPTY: RecordFormState = { values: {}, fieldErrors: {}, message: null, attempt: 0 };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

function form(values: Readonly<Record<string, string | File>>, files: readonly File[] = []): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  for (const file of files) data.append('attachments', file);
  return data;
}
const file = (bytes: Uint8Array, name: string) => new File([new Uint8Array(bytes)], name);

function idOf(result: RecordFormState | Redirect): number {
  if (!('redirectTo' in result)) expect.fail(`refused: ${result.message} ${JSON.stringify(result.fieldErrors)}`);
  return Number(/\/tickets\/(\d+)/.exec(result.redirectTo)?.[1]);
}

forEachDatabase('forms with files', (database) => {
  let engine: TestEngine;
  let customer: Actor;
  const fileCount = async () => (await engine.store.db.selectFrom('nf_file').select('id').execute()).length;
  const names = async (entity: string, id: number) => {
    const { record } = await engine.ops.get(customer, entity, id);
    const described = await engine.files.describe(record.attachments as number[]);
    return (record.attachments as number[]).map((f) => described.get(f)?.name);
  };

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    customer = await createActor(engine.store.db, ['customer'], 'Customer With Files');
  });

  it('opens a ticket with a screenshot, replies with a PDF, and edits keeping one file', async () => {
    const id = idOf(
      await submitCreate(
        engine,
        customer,
        'ticket',
        EMPTY,
        form({ subject: 'Blank screen', attachments: '' }, [file(PNG, 'shot.png')]),
        'UTC',
      ),
    );
    expect(await names('ticket', id)).toEqual(['shot.png']);

    const reply = await submitRelated(
      engine,
      customer,
      'ticket',
      id,
      'comment',
      EMPTY,
      form({ body: 'The log', attachments: '' }, [file(PDF, 'log.pdf')]),
      'UTC',
    );
    expect(reply).toEqual({ redirectTo: `/tickets/${id}#related-comment` });
    const [comment] = (await engine.ops.list(customer, 'comment', { filters: { ticket: String(id) } })).rows;
    expect(await names('comment', comment!.id)).toEqual(['log.pdf']);

    const { record } = await engine.ops.get(customer, 'ticket', id);
    const kept = String((record.attachments as number[])[0]);
    idOf(
      await submitUpdate(
        engine,
        customer,
        'ticket',
        id,
        EMPTY,
        form({ [VERSION_INPUT]: String(record.version), attachments: kept }, [file(Buffer.from('second'), 'notes.txt')]),
        'UTC',
      ),
    );
    expect(await names('ticket', id)).toEqual(['shot.png', 'notes.txt']);
  });

  it('attaches files a script uploaded first (ids posted as the field), of their uploader only', async () => {
    const other = await createActor(engine.store.db, ['customer'], 'Another Customer');
    const limits = engine.files.uploadLimits();
    const mine = await engine.files.stage(customer, { name: 'early.pdf', source: Readable.from([PDF]) }, limits);
    const theirs = await engine.files.stage(other, { name: 'theirs.pdf', source: Readable.from([PDF]) }, limits);
    const id = idOf(
      await submitCreate(engine, customer, 'ticket', EMPTY, form({ subject: 'Uploaded ahead', attachments: String(mine.id) }), 'UTC'),
    );
    expect(await names('ticket', id)).toEqual(['early.pdf']);

    const refused = await submitCreate(
      engine,
      customer,
      'ticket',
      EMPTY,
      form({ subject: 'Not mine', attachments: String(theirs.id) }),
      'UTC',
    );
    expect((refused as RecordFormState).fieldErrors.attachments).toMatch(/is not an upload of yours/);
    const row = await engine.store.db.selectFrom('nf_file').select('state').where('id', '=', theirs.id).executeTakeFirst();
    expect(row?.state).toBe('staged');
  });

  it('hands the form back naming the field, and keeps no file, when a file or the write is refused', async () => {
    const before = await fileCount();
    const wrongType = await submitCreate(
      engine,
      customer,
      'ticket',
      EMPTY,
      form({ subject: 'Binary', attachments: '' }, [file(Buffer.from('fine'), 'ok.txt'), file(new Uint8Array([0, 1, 2, 3]), 'x.bin')]),
      'UTC',
    );
    expect('redirectTo' in wrongType).toBe(false);
    expect((wrongType as RecordFormState).fieldErrors.attachments).toMatch(/x\.bin is application\/octet-stream; accepted: image\/png/);
    const refusedWrite = await submitCreate(
      engine,
      customer,
      'ticket',
      EMPTY,
      form({ subject: 'x', attachments: '' }, [file(PNG, 'a.png')]),
      'UTC',
    );
    expect((refusedWrite as RecordFormState).fieldErrors.subject).toBeDefined();
    expect(await fileCount()).toBe(before);
  });
});
