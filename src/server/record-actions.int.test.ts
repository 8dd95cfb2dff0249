import { beforeAll, describe, expect, it } from 'vitest';
import {
  createMatrixFixtures,
  outcomeOfCode,
  runMatrix,
  type Answer,
  type MatrixDoor,
  type MatrixFixtures,
} from '@testing/access-matrix/run';
import type { Engine } from '@/engine/engine';
import type { TestEngine } from '@testing/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import { captureLog } from '@/engine/log';
import { testModel } from '@testing/engine/ops';
import type { EntityModel } from '@/engine/spec/model';
import { forEachDatabase } from '@testing/engine/store';
import { openTestEngine } from '@testing/api/api';
import {
  initialMessageFormState,
  initialRecordFormState,
  VERSION_INPUT,
  type MessageFormState,
  type RecordFormState,
} from '@/ui/forms/state';
import { toFormValue } from './forms';
import { isRedirect, submitCreate, submitDelete, submitUpdate, type Redirect } from './record-actions';
import { knownEntity } from '@/ui/known-names';

/** What a browser would post: every value as a string, as the form's inputs hold them. */
function formDataOf(entity: EntityModel, input: Readonly<Record<string, unknown>>, version?: number): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(input)) {
    const field = entity.fieldsByName[name];
    data.append(name, field ? toFormValue(field, value as never, 'UTC') : String(value));
  }
  if (version !== undefined) data.append(VERSION_INPUT, String(version));
  return data;
}

/** The outcome of a server action: a redirect is done; a form handed back carries the refusal's code. */
async function outcomeOf(run: () => Promise<RecordFormState | MessageFormState | Redirect>): Promise<Answer> {
  let result: RecordFormState | MessageFormState | Redirect;
  try {
    result = await run();
  } catch (error) {
    const known = asNinefoldError(error);
    if (known) return outcomeOfCode(known.code);
    throw error;
  }
  if (isRedirect(result)) return 'allowed';
  if (!result.code) return `unexpected form without a code: ${result.message}`;
  // Field errors come back as messages; a reference refused as unknown says "no record #".
  const messages = ['fieldErrors' in result ? Object.values(result.fieldErrors) : [], result.message ?? ''].flat();
  const unknownReference = messages.some((m) => m.includes('no record #'));
  return outcomeOfCode(result.code, unknownReference ? ['unknown_reference'] : ['other']);
}

function formDoor(engine: Engine): MatrixDoor {
  const entity = (name: string) => knownEntity(engine.model, name);
  return {
    name: 'server actions',
    create: (user, name, input) =>
      outcomeOf(() => submitCreate(engine, user.actor, name, initialRecordFormState({}), formDataOf(entity(name), input), 'UTC')),
    update: (user, name, id, input, version) =>
      outcomeOf(() =>
        submitUpdate(engine, user.actor, name, id, initialRecordFormState({}), formDataOf(entity(name), input, version), 'UTC'),
      ),
    delete: (user, name, id, version) =>
      outcomeOf(() => submitDelete(engine, user.actor, name, id, initialMessageFormState, formDataOf(entity(name), {}, version))),
  };
}

forEachDatabase('server actions', (database) => {
  let engine: TestEngine;
  let fixtures: MatrixFixtures;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    fixtures = await createMatrixFixtures(testModel, engine.store.db);
  });

  it('hold the permission matrix of the spec for create, update and delete; a refusal changes nothing', async () => {
    const { result } = await captureLog(() => runMatrix(testModel, engine.store.db, fixtures, formDoor(engine)));
    expect(result.mismatches).toEqual([]);
    expect(result.checks).toBeGreaterThan(250);
  });

  describe('the form door', () => {
    it('redirects to the new record, and to the list after a delete', async () => {
      const admin = fixtures.users.find((u) => u.persona.name === 'admin')!.actor;
      const created = await submitCreate(
        engine,
        admin,
        'organization',
        initialRecordFormState({}),
        formDataOf(engine.model.entitiesByName.organization!, { name: 'Form door Ltd' }),
        'UTC',
      );
      expect(created).toEqual({ redirectTo: expect.stringMatching(/^\/organizations\/\d+$/) });
      const id = Number((created as Redirect).redirectTo.split('/').pop());
      const deleted = await submitDelete(
        engine,
        admin,
        'organization',
        id,
        initialMessageFormState,
        formDataOf(engine.model.entitiesByName.organization!, {}, 1),
      );
      expect(deleted).toEqual({ redirectTo: '/organizations' });
    });

    it('refuses a field the form did not offer (forged), naming it, instead of dropping it', async () => {
      const customer = fixtures.users.find((u) => u.persona.name === 'customer')!.actor;
      const form = formDataOf(engine.model.entitiesByName.ticket!, { subject: 'Forged assignee', assignee: String(customer.userId) });
      const { result } = await captureLog(() => submitCreate(engine, customer, 'ticket', initialRecordFormState({}), form, 'UTC'));
      expect(isRedirect(result)).toBe(false);
      const state = result as RecordFormState;
      expect(state.code).toBe('FORBIDDEN_FIELD');
      // Assignee is not among the customer's form fields: the refusal is in the message.
      expect(state.fieldErrors).toEqual({});
      expect(state.message).toContain('Assignee');
      expect(state.values.subject).toBe('Forged assignee');
    });

    it('takes a posted name that every object inherits (constructor, __proto__...) for no field and no entity', async () => {
      const admin = fixtures.users.find((u) => u.persona.name === 'admin')!.actor;
      const inherited = Object.getOwnPropertyNames(Object.prototype);
      const form = formDataOf(engine.model.entitiesByName.organization!, { name: 'Inherited names Ltd' });
      for (const name of inherited) form.append(name, 'posted');
      // Ignored as any name the form does not have.
      const created = await submitCreate(engine, admin, 'organization', initialRecordFormState({}), form, 'UTC');
      expect(created).toEqual({ redirectTo: expect.stringMatching(/^\/organizations\/\d+$/) });
      const { record } = await engine.ops.get(admin, 'organization', Number((created as Redirect).redirectTo.split('/').pop()));
      expect(record.name).toBe('Inherited names Ltd');
      expect(Object.keys(record).filter((key) => inherited.includes(key))).toEqual([]);
      for (const name of inherited) {
        await expect(submitCreate(engine, admin, name, initialRecordFormState({}), form, 'UTC')).rejects.toMatchObject({
          code: 'NOT_FOUND',
        });
      }
    });

    it('answers NOT_FOUND for an entity that does not exist or an id that is not one', async () => {
      const admin = fixtures.users.find((u) => u.persona.name === 'admin')!.actor;
      await expect(submitCreate(engine, admin, 'nothing', initialRecordFormState({}), new FormData(), 'UTC')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(submitUpdate(engine, admin, 'ticket', 0, initialRecordFormState({}), new FormData(), 'UTC')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });
  });
});
