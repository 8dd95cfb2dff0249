import { sql } from 'kysely';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import type { Ops } from '../ops/ops';
import type { Actor } from '../ground/actor';
import type { AppModel } from '../spec/model';
import { SAVED_VIEW_TABLE } from '../store/schema/desired';
import type { DynamicDatabase } from '../store/types';
import { cachedRead } from '../store/write-clock';
import { boundedState, EMPTY_LIST_STATE, layoutOf } from './list-state';
import type { ListState, NewSavedView, SavedView, SavedViews } from './types';
import { inSentence } from '../spec/naming';
import { ADMIN_ROLE, isAdmin } from '../access/policy';

export const MAX_VIEW_NAME_LENGTH = 80;
/** Views one user may keep per entity: the navigation lists them all. */
const MAX_VIEWS_PER_ENTITY = 50;

interface ViewRow {
  id: number | string;
  owner_id: number | string;
  entity: string;
  name: string;
  state: unknown;
  shared_with: string[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = ['id', 'owner_id', 'entity', 'name', 'state', 'shared_with', 'created_at', 'updated_at'] as const;

function nameError(message: string, code = 'invalid'): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', message, { fieldErrors: [{ field: 'name', code, message }] });
}

/** A stored state read back defensively: the row is ours, but a hand edit must not break a page. */
function storedState(value: unknown): ListState {
  const raw = (typeof value === 'string' ? JSON.parse(value) : value) as Partial<Record<keyof ListState, unknown>> | null;
  if (!raw || typeof raw !== 'object') return EMPTY_LIST_STATE;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const filters =
    raw.filters && typeof raw.filters === 'object' ? Object.fromEntries(Object.entries(raw.filters).map(([k, v]) => [k, text(v)])) : {};
  const columns = Array.isArray(raw.columns) ? raw.columns.filter((c): c is string => typeof c === 'string') : [];
  return boundedState({ filters, q: text(raw.q), sort: text(raw.sort), columns, ...layoutOf(raw.layout) });
}

function toView(row: ViewRow, actor: Actor): SavedView {
  const ownerId = Number(row.owner_id);
  return {
    id: Number(row.id),
    entity: row.entity,
    name: row.name,
    state: storedState(row.state),
    ownerId,
    sharedWith: row.shared_with,
    mine: ownerId === actor.userId,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Saved views over the engine's `nf_saved_view` table. Who sees what: the owner, and members of
 * the roles it is shared with; only for entities the viewer may list (ops.access decides), so a
 * role that loses an entity loses its views with it. Views hold list states, never records.
 */
export function createSavedViews({ model, db, ops }: { model: AppModel; db: DynamicDatabase; ops: Ops }): SavedViews {
  const listable = (actor: Actor, entity: string) => entity in model.entitiesByName && ops.access(actor, entity).actions.list;

  /** Every view the actor owns or is shared with, read once per write (the navigation asks on every page). */
  const visibleRows = (actor: Actor): Promise<ViewRow[]> =>
    cachedRead(db, `views\u0000${actor.userId}\u0000${actor.roles.join(',')}`, async () => {
      const rows = await db
        .selectFrom(SAVED_VIEW_TABLE)
        .select([...COLUMNS])
        .where((eb) =>
          actor.roles.length > 0
            ? eb.or([eb('owner_id', '=', actor.userId), eb('shared_with', '&&', sql<string[]>`${sql.val([...actor.roles])}::text[]`)])
            : eb('owner_id', '=', actor.userId),
        )
        .orderBy('entity')
        .orderBy(sql`lower(name)`)
        .orderBy('id')
        .execute();
      return rows as ViewRow[];
    });

  async function find(actor: Actor, id: number): Promise<SavedView> {
    const row = Number.isSafeInteger(id) ? (await visibleRows(actor)).find((r) => Number(r.id) === id) : undefined;
    if (!row || !listable(actor, row.entity)) throw notFound('saved view');
    return toView(row, actor);
  }

  async function owned(actor: Actor, id: number): Promise<SavedView> {
    const view = await find(actor, id);
    if (!view.mine) throw new NinefoldError('FORBIDDEN', 'Only the person who saved this view may change or delete it.');
    return view;
  }

  /** The trimmed name, or why it cannot be used for this owner's views of this entity. */
  async function checkedName(actor: Actor, entity: string, name: string, except?: number): Promise<string> {
    const trimmed = name.trim().replace(/\s+/g, ' ');
    if (trimmed === '') throw nameError('Give the view a name.', 'required');
    if (trimmed.length > MAX_VIEW_NAME_LENGTH) throw nameError(`Use at most ${MAX_VIEW_NAME_LENGTH} characters.`, 'too_big');
    const clash = await db
      .selectFrom(SAVED_VIEW_TABLE)
      .select('name')
      .where('owner_id', '=', actor.userId)
      .where('entity', '=', entity)
      .where(sql`lower(name)`, '=', trimmed.toLowerCase())
      .$if(except !== undefined, (q) => q.where('id', '<>', except!))
      .executeTakeFirst();
    if (clash) throw nameTaken(model, entity, (clash as { name: string }).name);
    return trimmed;
  }

  async function write(actor: Actor, run: () => Promise<ViewRow | undefined>, entity: string, name: string): Promise<SavedView> {
    try {
      const row = await run();
      if (!row) throw notFound('saved view');
      return toView(row, actor);
    } catch (error) {
      // Two saves of the same name at once: the unique key has the last word.
      if ((error as { code?: string } | null)?.code === '23505') throw nameTaken(model, entity, name);
      throw error;
    }
  }

  return {
    async list(actor, entity) {
      const rows = await visibleRows(actor);
      return rows.filter((r) => (entity === undefined || r.entity === entity) && listable(actor, r.entity)).map((r) => toView(r, actor));
    },

    get: find,

    async create(actor, view: NewSavedView) {
      if (!listable(actor, view.entity)) throw new NinefoldError('FORBIDDEN', 'You cannot save views of this list.');
      const name = await checkedName(actor, view.entity, view.name);
      const { count } = (await db
        .selectFrom(SAVED_VIEW_TABLE)
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('owner_id', '=', actor.userId)
        .where('entity', '=', view.entity)
        .executeTakeFirstOrThrow()) as { count: string };
      if (Number(count) >= MAX_VIEWS_PER_ENTITY) {
        throw new NinefoldError('LIMIT_EXCEEDED', `You can keep at most ${MAX_VIEWS_PER_ENTITY} views of one list. Delete one first.`);
      }
      return write(
        actor,
        () =>
          db
            .insertInto(SAVED_VIEW_TABLE)
            .values({ owner_id: actor.userId, entity: view.entity, name, state: JSON.stringify(boundedState(view.state)) })
            .returning([...COLUMNS])
            .executeTakeFirst() as Promise<ViewRow | undefined>,
        view.entity,
        name,
      );
    },

    async rename(actor, id, newName) {
      const view = await owned(actor, id);
      const name = await checkedName(actor, view.entity, newName, view.id);
      return write(actor, () => update(id, { name }), view.entity, name);
    },

    async replaceState(actor, id, state) {
      const view = await owned(actor, id);
      return write(actor, () => update(id, { state: JSON.stringify(boundedState(state)) }), view.entity, view.name);
    },

    async share(actor, id, roles) {
      if (!isAdmin(actor)) throw new NinefoldError('FORBIDDEN', 'Only administrators may share views.');
      const view = await owned(actor, id);
      const unknown = roles.find((r) => !Object.hasOwn(model.roles, r) && !isAdmin(r));
      if (unknown !== undefined) {
        throw new NinefoldError('VALIDATION_FAILED', `There is no role "${unknown}".`, {
          fieldErrors: [{ field: 'roles', code: 'invalid', message: `There is no role "${unknown}".` }],
        });
      }
      const ordered = Object.keys(model.roles).filter((r) => roles.includes(r));
      const withAdmin = roles.some(isAdmin) && !ordered.some(isAdmin) ? [ADMIN_ROLE, ...ordered] : ordered;
      return write(actor, () => update(id, { shared_with: sql`${sql.val(withAdmin)}::text[]` }), view.entity, view.name);
    },

    async delete(actor, id) {
      await owned(actor, id);
      await db.deleteFrom(SAVED_VIEW_TABLE).where('id', '=', id).where('owner_id', '=', actor.userId).execute();
    },
  };

  function update(id: number, values: Record<string, unknown>): Promise<ViewRow | undefined> {
    return db
      .updateTable(SAVED_VIEW_TABLE)
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .returning([...COLUMNS])
      .executeTakeFirst() as Promise<ViewRow | undefined>;
  }
}

function nameTaken(model: AppModel, entity: string, name: string): NinefoldError {
  const plural = inSentence(model.entitiesByName[entity]?.pluralLabel ?? entity);
  return nameError(`You already have a view of ${plural} named "${name}".`, 'unique');
}
