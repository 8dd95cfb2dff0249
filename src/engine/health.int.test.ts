import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeHealth } from './health';
import { openSyncedQuickly, testModel } from '@testing/engine/ops';
import { engineOnStore, openUnreachableEngine } from '@testing/engine/store-outage';
import { forEachDatabase } from '@testing/engine/store';
import type { TestEngine } from '@testing/engine/engine';

/** What the health route answers with: the engine asks its database, and a connection error is an answer, not a throw. */
forEachDatabase('engine health', (database) => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = engineOnStore(await openSyncedQuickly(database, testModel), testModel);
  });
  afterAll(() => engine.close());

  it('says the database answers and takes writes, with the spec and the database kind', async () => {
    expect(await engine.health()).toEqual({ spec: 'helpdesk', kind: database.kind, reachable: true, writable: true });
  });

  it('says when the database answers but would refuse a write', async () => {
    // One connection holds the setting for the probe: a transaction whose statements all run on it.
    const health = await engine.store.db.transaction().execute(async (trx) => {
      await sql`set transaction read only`.execute(trx);
      return probeHealth({ ...engine.store, db: trx }, 'helpdesk');
    });
    expect(health).toMatchObject({ reachable: true, writable: false });
  });

  it('reports an unreachable database as such, with the catalogue error the door sends with Retry-After', async () => {
    const unreachable = await openUnreachableEngine(database, testModel);
    try {
      const health = await unreachable.health();
      expect(health).toMatchObject({ spec: 'helpdesk', kind: database.kind, reachable: false });
      expect(!health.reachable && health.unavailable.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await unreachable.close();
    }
  });
});
