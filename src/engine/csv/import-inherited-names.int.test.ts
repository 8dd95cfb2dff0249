import { beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import { createOps } from '../ops/create-ops';
import type { Ops } from '../ops/ops';
import { countRows, createActor, ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import type { Store } from '../store/types';
import { importCsv } from './import-csv';

/** Every name a plain object answers for without declaring it: as a header, a column like any unknown one. */
const INHERITED = Object.getOwnPropertyNames(Object.prototype);

forEachDatabase('CSV import: headers that name what objects inherit', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    ops = createOps({ model: testModel, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Grace Agent');
  });

  it('refuses each as an unknown column, before any row', async () => {
    const header = ['Subject', ...INHERITED].join(',');
    const row = ['Printer on fire', ...INHERITED.map(() => 'x')].join(',');
    const refused = await ninefoldError(
      importCsv(ops, testModel, agent, 'ticket', new TextEncoder().encode(`${header}\n${row}\n`), { maxBytes: 1024 * 1024 }),
    );
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.fieldErrors.map((e) => [e.field, e.code])).toEqual(INHERITED.map((name) => [name, 'unknown_column']));
    expect(await countRows(store.db, 'ticket')).toBe(0);
  });
});
