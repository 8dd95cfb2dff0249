import { faker } from '@faker-js/faker';
import { sql } from 'kysely';
import type { Identity } from '../identity/types';
import type { AppModel, EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { demoValue } from './demo-values';

export interface SeedProgress {
  start(total: number): void;
  advance(rows: number): void;
  stop(): void;
}

export interface SeedResult {
  readonly rows: Readonly<Record<string, number>>;
  readonly users: readonly { email: string; roles: readonly string[] }[];
  readonly seconds: number;
}

const BATCH_ROWS = 1000;
export const DEMO_PASSWORD = 'demo-password';

/**
 * Order entities so that referenced ones are filled first; the first entity of the navigation
 * (the app's main record) gets `count` rows, entities it refers to one per hundred, others half.
 */
function plan(model: AppModel, count: number): { entity: EntityModel; rows: number }[] {
  const main = model.navigation[0] ?? model.entities[0];
  const referencedByMain = new Set(main?.fields.filter((f) => f.referenceTo).map((f) => f.referenceTo!));
  const ordered: EntityModel[] = [];
  const visit = (e: EntityModel, path: Set<string>) => {
    if (ordered.includes(e) || path.has(e.name)) return;
    path.add(e.name);
    for (const f of e.fields) if (f.referenceTo && f.referenceTo !== e.name) visit(model.entitiesByName[f.referenceTo], path);
    ordered.push(e);
  };
  for (const e of model.entities) visit(e, new Set());
  return ordered.map((entity) => ({
    entity,
    rows: entity === main ? count : referencedByMain.has(entity.name) ? Math.max(5, Math.ceil(count / 100)) : Math.ceil(count / 2),
  }));
}

/** Demo users: an admin-like account per role, so every screen has someone to show. */
async function ensureDemoUsers(model: AppModel, identity: Identity): Promise<{ email: string; roles: readonly string[] }[]> {
  const roles = Object.keys(model.roles).length > 0 ? Object.keys(model.roles) : ['admin'];
  const existing = new Set((await identity.listUsers()).map((u) => u.email));
  const created: { email: string; roles: readonly string[] }[] = [];
  for (const role of roles) {
    for (let i = 1; i <= (role === 'admin' ? 1 : 5); i++) {
      const email = `${role}${i}@demo.ninefold.test`;
      if (!existing.has(email)) {
        await identity.createUser({ email, password: DEMO_PASSWORD, name: faker.person.fullName(), roles: [role] });
        created.push({ email, roles: [role] });
      }
    }
  }
  return created;
}

/** Fills every entity of the spec with realistic demo data, in batches of multi-row inserts. */
export async function seedDemoData(
  model: AppModel,
  db: DynamicDatabase,
  identity: Identity,
  count: number,
  progress: SeedProgress,
): Promise<SeedResult> {
  const started = performance.now();
  faker.seed(count);
  const users = await ensureDemoUsers(model, identity);
  const userIds = (await db.selectFrom('nf_user').select('id').execute()).map((u) => u.id as number);
  const steps = plan(model, count);
  progress.start(steps.reduce((sum, s) => sum + s.rows, 0));

  const idsByEntity: Record<string, number[]> = {};
  const rows: Record<string, number> = {};
  for (const { entity, rows: total } of steps) {
    const start = Number((await db.selectFrom(entity.table).select(db.fn.max('id').as('max')).executeTakeFirst())?.max ?? 0);
    const ids: number[] = [];
    for (let done = 0; done < total; done += BATCH_ROWS) {
      const batch = Array.from({ length: Math.min(BATCH_ROWS, total - done) }, (_, i) =>
        demoRow(entity, start + done + i + 1, idsByEntity, userIds, total - done - i),
      );
      const inserted = await db.insertInto(entity.table).values(batch).returning('id').execute();
      for (const r of inserted) ids.push(r.id as number);
      progress.advance(batch.length);
    }
    idsByEntity[entity.name] = ids;
    rows[entity.name] = ids.length;
  }
  // Fresh statistics after a bulk load: without them the planner combines filter indexes and
  // sorts tens of thousands of rows instead of walking the sort index (PGlite has no autovacuum).
  for (const table of [...steps.map((s) => s.entity.table), 'nf_user']) await sql`analyze ${sql.table(table)}`.execute(db);
  progress.stop();
  return { rows, users, seconds: (performance.now() - started) / 1000 };
}

function demoRow(
  entity: EntityModel,
  unique: number,
  idsByEntity: Record<string, number[]>,
  userIds: number[],
  age: number,
): Record<string, unknown> {
  // Older rows first, spread over the last 180 days, so lists sorted by time look lived-in.
  const createdAt = new Date(Date.now() - age * 37_000 - faker.number.int({ max: 30_000 }));
  const row: Record<string, unknown> = { created_at: createdAt, updated_at: createdAt };
  const author = userIds.length ? faker.helpers.arrayElement(userIds) : null;
  row.created_by = author;
  row.updated_by = author;
  for (const field of entity.fields) {
    if (field.type === 'user') {
      row[field.column] = userIds.length && (field.required || faker.datatype.boolean({ probability: 0.7 })) ? faker.helpers.arrayElement(userIds) : null;
    } else if (field.type === 'reference') {
      const targets = idsByEntity[field.referenceTo!] ?? [];
      row[field.column] = targets.length && (field.required || faker.datatype.boolean({ probability: 0.8 })) ? faker.helpers.arrayElement(targets) : null;
    } else if (field.readOnly) {
      row[field.column] = null;
    } else {
      row[field.column] = demoValue(faker, field, unique);
    }
  }
  if (entity.workflow) {
    const state = faker.helpers.arrayElement(entity.workflow.states).name;
    row[entity.workflow.column] = state;
    // Effects that stamp a time on the way into this state (e.g. resolvedAt) get a past time.
    for (const t of entity.workflow.transitions.filter((t) => t.to === state)) {
      for (const effect of t.effects) {
        const field = entity.fieldsByName[effect.set];
        if (field?.type === 'datetime' && effect.to === 'now') row[field.column] = faker.date.between({ from: createdAt, to: new Date() });
        if (field?.type === 'user' && effect.to === 'actor') row[field.column] = author;
      }
    }
  }
  return row;
}
