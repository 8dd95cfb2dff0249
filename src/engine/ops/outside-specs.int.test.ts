import { beforeAll, describe, expect, it } from 'vitest';
import { accessFor } from '../access/entity-access';
import { createIdentity } from '../identity/identity';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/**
 * Bugs found by specs written outside the team, each with a spec of the kind that found it:
 * articles written by authors and read by readers, and appointments titled by their patient.
 */
const spec: AppSpec = {
  name: 'outside',
  entities: {
    article: {
      fields: {
        title: { type: 'text', required: true },
        author: { type: 'user', default: 'actor', required: true, readOnly: true },
        // Set by the engine only: its default must still be stored on create.
        channel: { type: 'text', readOnly: true, required: true, default: 'web' },
        score: { type: 'integer', readOnly: true, default: 5 },
        rating: { type: 'integer', min: 1, max: 5, messages: { too_small: 'One star at least.', too_big: 'Five stars at most.' } },
      },
    },
    patient: { fields: { name: { type: 'text', required: true } } },
    appointment: {
      titleField: 'patient',
      fields: {
        patient: { type: 'reference', to: 'patient', required: true },
        notes: { type: 'text' },
      },
    },
    invoice: {
      fields: {
        number: { type: 'text', required: true },
        appointment: { type: 'reference', to: 'appointment' },
        batch: { type: 'reference', to: 'batch' },
      },
    },
    // Titled by a number: chosen by searching for its digits.
    batch: { titleField: 'code', fields: { code: { type: 'integer', required: true } } },
  },
  workflows: {
    article: {
      states: { draft: { initial: true }, review: {}, published: { final: true } },
      transitions: {
        submit: { label: 'Submit for review', from: 'draft', to: 'review', allow: [{ owner: 'author' }] },
        publish: { label: 'Publish', from: 'review', to: 'published', allow: ['editor'] },
      },
    },
  },
  roles: { author: {}, reader: {}, editor: {} },
  permissions: {
    article: {
      author: { list: true, read: true, create: true, update: { own: 'author' } },
      reader: { list: true, read: true },
      editor: { list: true, read: true, update: true },
    },
    patient: { editor: { list: true, read: true, create: true } },
    appointment: { editor: { list: true, read: true, create: true }, reader: { list: true, read: true } },
    invoice: { editor: { list: true, read: true, create: true } },
    batch: { editor: { list: true, read: true, create: true } },
  },
};
const model = buildModel(spec);

forEachDatabase('ops: what specs written outside the team found', (database) => {
  let store: Store;
  let ops: Ops;
  let author: Actor;
  let otherAuthor: Actor;
  let reader: Actor;
  let editor: Actor;
  let users = 0;

  async function actor(roles: string[]): Promise<Actor> {
    users += 1;
    const account = await createIdentity(store.db, Object.keys(spec.roles!)).createUser(SYSTEM_ACTOR, {
      email: `${roles.join('-')}.${users}.${process.pid}@example.com`,
      password: 'correct horse battery',
      name: `${roles.join(' ')} ${users}`,
      roles,
    });
    return { userId: account.id, email: account.email, name: account.name, roles: account.roles };
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    author = await actor(['author']);
    otherAuthor = await actor(['author']);
    reader = await actor(['reader']);
    editor = await actor(['editor']);
  });

  it('a read-only field takes its default on create (required or not)', async () => {
    const article = await ops.create(author, 'article', { title: 'Defaults' });
    expect(article).toMatchObject({ channel: 'web', score: 5, author: author.userId });
    const row = await store.db.selectFrom('article').select(['channel', 'score']).where('id', '=', article.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ channel: 'web', score: 5 });
    // Still nobody's to write.
    expect((await ninefoldError(ops.create(author, 'article', { title: 'Mine', channel: 'mail' }))).code).toBe('FORBIDDEN_FIELD');
  });

  it("number ranges answer too_small / too_big with the spec's own messages", async () => {
    for (const [rating, code, message] of [
      [0, 'too_small', 'One star at least.'],
      [6, 'too_big', 'Five stars at most.'],
    ] as const) {
      const error = await ninefoldError(ops.create(author, 'article', { title: 'Rated', rating }));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.fieldErrors).toEqual([{ field: 'rating', code, message }]);
    }
  });

  describe('transitions open to an owner', () => {
    it('are offered on a record only to its owner, not even as blocked to anyone else', async () => {
      const article = await ops.create(author, 'article', { title: 'Offers' });
      const offered = async (who: Actor) => (await ops.get(who, 'article', article.id)).transitions.map((t) => t.name);
      expect(await offered(author)).toEqual(['submit']);
      expect(await offered(otherAuthor)).toEqual([]);
      expect(await offered(reader)).toEqual([]);
      expect(await offered(editor)).toEqual([]);
    });

    it('are offered for lists (bulk) only to those who can be an owner', () => {
      const offered = (who: Actor) => accessFor(model, model.entitiesByName.article!, who).transitions;
      // Authors create articles, and the author field defaults to the creator.
      expect(offered(author)).toEqual({ submit: true, publish: false });
      // Readers and editors read every article but are never its author (nobody writes it).
      expect(offered(reader)).toEqual({ submit: false, publish: false });
      expect(offered(editor)).toEqual({ submit: false, publish: true });
    });

    it('are offered for lists to those who may write the owner field (taking the work themselves)', () => {
      const reviewed = buildModel({
        ...spec,
        entities: { article: { fields: { ...spec.entities!.article!.fields, reviewer: { type: 'user' } } } },
        workflows: {
          article: {
            ...spec.workflows!.article!,
            transitions: { approve: { from: 'review', to: 'published', allow: [{ owner: 'reviewer' }] } },
          },
        },
        rules: {},
        permissions: { article: spec.permissions!.article! },
      });
      const offered = (roles: string[]) =>
        accessFor(reviewed, reviewed.entitiesByName.article!, { userId: 1, email: 'x@example.com', name: 'X', roles }).transitions.approve;
      // Editors may update every article, reviewer included; authors may write it too (on their own
      // articles); readers can never become the reviewer.
      expect(offered(['editor'])).toBe(true);
      expect(offered(['author'])).toBe(true);
      expect(offered(['reader'])).toBe(false);
    });

    it("keep the helpdesk's offers: customers reply and reopen (their own tickets), agents take everything", () => {
      const offered = (roles: string[]) => {
        const transitions = accessFor(testModel, testModel.entitiesByName.ticket!, {
          userId: 1,
          email: 'x@example.com',
          name: 'X',
          roles,
        }).transitions;
        return Object.keys(transitions).filter((name) => transitions[name]);
      };
      expect(offered(['customer'])).toEqual(['reply', 'reopen']);
      expect(offered(['agent'])).toEqual(['start', 'wait', 'reply', 'resolve', 'reopen', 'close']);
    });
  });

  it('a record titled by a number is chosen by searching its digits (no failing text search)', async () => {
    const batch = await ops.create(editor, 'batch', { code: 4711 });
    await ops.create(editor, 'batch', { code: 815 });
    expect((await ops.choices(editor, 'invoice', 'batch', { q: '471' })).choices).toEqual([{ id: batch.id, title: '4711' }]);
  });

  it('a record titled by a reference is named by the referenced title, never its bare id, where it is referred to', async () => {
    const patient = await ops.create(editor, 'patient', { name: 'Ada Lovelace' });
    const appointment = await ops.create(editor, 'appointment', { patient: patient.id });
    const { references } = await ops.get(editor, 'appointment', appointment.id);
    expect(references.patient).toEqual({ [patient.id]: 'Ada Lovelace' });
    // Where an appointment is referred to or chosen, it is its patient's name (never the patient's id).
    const invoice = await ops.create(editor, 'invoice', { number: 'INV-1', appointment: appointment.id });
    expect((await ops.get(editor, 'invoice', invoice.id)).references.appointment).toEqual({ [appointment.id]: 'Ada Lovelace' });
    for (const options of [{}, { q: 'Ada' }]) {
      expect((await ops.choices(editor, 'invoice', 'appointment', options)).choices).toEqual([
        { id: appointment.id, title: 'Ada Lovelace' },
      ]);
    }
  });
});
