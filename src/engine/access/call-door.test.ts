import { describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { Actor } from '../ground/actor';
import { callActor, isThroughCall, writesThroughDoor } from './call-door';
import { ledgerSpec } from '@testing/engine/call-door';
import { accessFor } from './entity-access';
import { writableFields } from './fields';

const model = buildModel(ledgerSpec);
const payment = model.entitiesByName.payment!;
const account = model.entitiesByName.account!;
const clerk: Actor = { userId: 7, email: 'clerk@example.com', name: 'Clerk', roles: ['clerk'] };

describe('the call door', () => {
  it('is open only to the actor a call was given, never to a copy or a look-alike', () => {
    const caller = callActor(clerk);
    expect(caller).toEqual(clerk);
    expect(isThroughCall(caller)).toBe(true);
    expect(isThroughCall(clerk)).toBe(false);
    expect(isThroughCall({ ...caller })).toBe(false);
    expect(isThroughCall(JSON.parse(JSON.stringify(caller)) as Actor)).toBe(false);
    expect(Object.isFrozen(caller)).toBe(true);
  });

  it('lets only calls create, change and delete records of an entity only calls write; reads stay open', () => {
    for (const action of ['create', 'update', 'delete'] as const) {
      expect(writesThroughDoor(payment, clerk, action), action).toBe(false);
      expect(writesThroughDoor(payment, callActor(clerk), action), action).toBe(true);
      expect(writesThroughDoor(account, clerk, action), action).toBe(true);
    }
    expect(writesThroughDoor(payment, clerk, 'list')).toBe(true);
    expect(writesThroughDoor(payment, clerk, 'read')).toBe(true);
  });

  it('tells the doors what they may offer: nothing to write outside calls, everything granted inside', () => {
    expect(accessFor(model, payment, clerk).actions).toEqual({ list: true, read: true, create: false, update: false, delete: false });
    expect(accessFor(model, payment, callActor(clerk)).actions).toEqual({
      list: true,
      read: true,
      create: true,
      update: true,
      delete: true,
    });
    expect(accessFor(model, payment, callActor(clerk)).writable.create).toEqual(['memo', 'account', 'amount']);
    expect(writableFields(account, clerk, 'update')).toEqual(['name', 'note']);
    expect(writableFields(account, callActor(clerk), 'update')).toEqual(['name', 'balance', 'note']);
    // A role with no update grant writes nothing, through calls neither.
    const nobody: Actor = { ...clerk, roles: ['viewer'] };
    expect(writableFields(payment, callActor(nobody), 'update')).toEqual([]);
  });
});
