import { beforeAll, expect, it } from 'vitest';
import type { TestEngine } from '@testing/engine/engine';
import { buildModel } from '@/engine/spec/build';
import { importCsv } from '@/engine/csv/import-csv';
import type { Actor } from '@/engine/ground/actor';
import { lending } from '@/engine/ops/consequences.fixture';
import { forEachDatabase } from '@testing/engine/store';
import { createActor } from '@testing/engine/ops';
import { openTestEngine } from '@testing/api/api';
import { initialRecordFormState, type RecordFormState } from '@/ui/forms/state';
import { isRedirect, submitCreate } from './record-actions';

const model = buildModel(lending);

/** The form and the CSV import meet a rule that names its own code (NEGATIVE_AMOUNT). */
forEachDatabase('forms and imports: rules with their own codes', (database) => {
  let engine: TestEngine;
  let staff: Actor;
  let item: number;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    staff = await createActor(engine.store.db, ['staff'], 'Form Staff');
    item = (await engine.ops.create(staff, 'item', { name: 'Ladder' })).id;
  });

  it('hands the form back with the code, the catalogue message above and the rule message next to the field', async () => {
    const form = new FormData();
    form.append('code', 'F1');
    form.append('item', String(item));
    form.append('amount', '-2');
    const result = await submitCreate(engine, staff, 'loan', initialRecordFormState({}), form, 'UTC');
    expect(isRedirect(result)).toBe(false);
    const state = result as RecordFormState;
    expect(state.code).toBe('NEGATIVE_AMOUNT');
    expect(state.fieldErrors).toEqual({ amount: 'The amount cannot be negative.' });
    expect(state.values).toMatchObject({ code: 'F1', amount: '-2' });
  });

  it('refuses the import row on its column with the rule message, writing nothing', async () => {
    const text = `code,item,amount\nC1,${item},3\nC2,${item},-1\n`;
    const report = await importCsv(engine.ops, model, staff, 'loan', new TextEncoder().encode(text), { maxBytes: 1024 * 1024 });
    expect(report.created).toBe(0);
    expect(report.refused).toEqual([
      expect.objectContaining({ line: 3, problems: [{ column: 'amount', message: 'The amount cannot be negative.' }] }),
    ]);
  });
});
