import { beforeAll, expect, it } from 'vitest';
import { createActor, testModel } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { bindOps } from '@/engine/ops/ops';
import { buildModel } from '@/engine/spec/build';
import type { Actor } from '@/engine/ground/actor';
import { needsGettingStarted } from './getting-started';

/*
 * The home tells a new administrator what to do first while the product holds no record at all;
 * nobody else is told, and it goes with the first record. The empty spec (no entities) has no
 * such step: its home stays the bare shell.
 */
forEachDatabase('the getting-started step', (database) => {
  let engine: TestEngine;
  let admin: Actor;
  let agent: Actor;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    admin = await createActor(engine.store.db, ['admin'], 'New Admin');
    agent = await createActor(engine.store.db, ['agent'], 'New Agent');
  });

  const asks = (actor: Actor) => needsGettingStarted(testModel, bindOps(engine.ops, actor), actor);

  it('is shown to an administrator while there is no record, to nobody else, and goes with the first record', async () => {
    expect(await asks(admin)).toBe(true);
    expect(await asks(agent)).toBe(false);
    await engine.ops.create(admin, 'organization', { name: 'First Org' });
    expect(await asks(admin)).toBe(false);
  });

  it('is never shown for a spec without entities', async () => {
    const empty = buildModel({ name: 'seed' });
    expect(await needsGettingStarted(empty, bindOps(engine.ops, admin), admin)).toBe(false);
  });
});
