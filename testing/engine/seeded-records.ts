/**
 * For the seeder's tests: every stored record read back and checked with the engine's own
 * validation, as ops would have checked each of its writes. Each version of a record (its
 * creation, then each transition) is rebuilt from its history and must pass its fields' schemas
 * (pattern, lengths, ranges, required) and the entity's rules (date bounds too) at the time of
 * that write, by the user who made it; the last version must be the stored row; times must follow
 * each other (created, then each step, never in the future; a read-only `now` default is the
 * creation time); users must hold a field's `roles`; no two records may share the values of a
 * unique field, a `uniqueTogether` or a `uniqueWhen`; and no owner may hold more records than a
 * limit allows.
 */
import { checkEntityRules } from '@/engine/rules/entity-rules';
import { evaluateCondition } from '@/engine/condition/evaluate';
import { fieldSchema, issueMessage } from '@/engine/rules/field-schema';
import { userFieldColumns, userFieldValues } from '@/engine/identity/user-fields';
import { withPathValues } from '@/engine/ops/path-values';
import { holds } from '@/engine/ops/unique-when';
import { recordColumns, rowToRecord } from '@/engine/ops/records';
import type { AppModel, EntityModel, FieldModel } from '@/engine/spec/model';
import { AUDIT_TABLE, USER_TABLE } from '@/engine/store/schema/desired';
import type { DynamicDatabase } from '@/engine/store/types';

type Values = Record<string, unknown>;

interface AuditRow {
  readonly at: Date;
  readonly actor_id: number | null;
  readonly action: string;
  readonly changes: { fields: Record<string, [unknown, unknown]>; transition?: { to: string } };
}

const time = (value: unknown) => (value instanceof Date ? value.getTime() : Date.parse(String(value)));

/** A value as it would be compared: times by time, sets and the rest by their JSON. */
function comparable(value: unknown): string {
  if (value instanceof Date) return String(value.getTime());
  return JSON.stringify(value ?? null);
}

/** Fields the engine alone sets (read-only, due times): on create, empty unless they have a default, as ops allow. */
function engineSetWithoutDefault(field: FieldModel): boolean {
  return (field.readOnly || field.due !== undefined) && !('default' in field.spec && field.spec.default !== undefined);
}

/** The field's schema's verdict on a value: its stored form, or the user's message. */
function parse(model: AppModel, field: FieldModel, value: unknown): { value: unknown } | { problem: string } {
  const parsed = fieldSchema(field).safeParse(value);
  return parsed.success ? { value: parsed.data } : { problem: issueMessage(parsed.error.issues[0]!, field) };
}

interface UserFacts {
  readonly roles: readonly string[];
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Every problem found, in words that name the record ("ticket #12: ..."); none for a sound seed. */
export async function problemsOfSeededRecords(model: AppModel, db: DynamicDatabase, now = new Date()): Promise<string[]> {
  const problems: string[] = [];
  const accounts = await db
    .selectFrom(USER_TABLE)
    .select(['id', 'roles', ...userFieldColumns(model)])
    .execute();
  const users = new Map<number, UserFacts>(
    accounts.map((u) => [Number(u.id), { roles: u.roles as string[], fields: userFieldValues(model, u) }]),
  );
  const actorContext = (id: number | null) => (id === null ? { actorId: null } : { actorId: id, actorFields: users.get(id)?.fields ?? {} });
  for (const entity of model.entities) problems.push(...(await entityProblems(model, db, entity, users, actorContext, now)));
  return problems;
}

async function entityProblems(
  model: AppModel,
  db: DynamicDatabase,
  entity: EntityModel,
  users: ReadonlyMap<number, UserFacts>,
  actorContext: (id: number | null) => { actorId: number | null; actorFields?: Readonly<Record<string, unknown>> },
  now: Date,
): Promise<string[]> {
  const problems: string[] = [];
  const rows = await db.selectFrom(entity.table).select(recordColumns(entity)).orderBy('id').execute();
  const audit = (await db
    .selectFrom(AUDIT_TABLE)
    .select(['record_id', 'at', 'actor_id', 'action', 'changes'])
    .where('entity', '=', entity.name)
    .orderBy('at')
    .orderBy('id')
    .execute()) as (AuditRow & { record_id: number })[];
  const historyOf = new Map<number, AuditRow[]>();
  for (const row of audit) historyOf.set(Number(row.record_id), [...(historyOf.get(Number(row.record_id)) ?? []), row]);
  const conditions = Object.values(entity.rules).flatMap((r) => [r.when, r.assert]);
  const finals: Values[] = [];

  for (const row of rows) {
    const stored = rowToRecord(entity, row as Values) as unknown as Values;
    const name = `${entity.name} #${String(stored.id)}`;
    finals.push(stored);
    const history = historyOf.get(Number(stored.id)) ?? [];
    if (history[0]?.action !== 'create') {
      problems.push(`${name}: its history does not start with its creation`);
      continue;
    }
    if (history.length !== Number(stored.version))
      problems.push(`${name}: version ${String(stored.version)} but ${history.length} history rows`);
    if (time(history[0].at) !== time(stored.createdAt))
      problems.push(`${name}: created at ${String(stored.createdAt)} but its history says ${String(history[0].at)}`);
    if (time(history.at(-1)!.at) !== time(stored.updatedAt))
      problems.push(`${name}: updated at ${String(stored.updatedAt)}, its last history row is at ${String(history.at(-1)!.at)}`);
    if (time(stored.updatedAt) > now.getTime()) problems.push(`${name}: updated in the future`);

    // Each version, as ops checked it when it was written.
    let before: Values | null = null;
    let version: Values = {};
    for (const [step, event] of history.entries()) {
      const at = new Date(event.at);
      if (step > 0 && time(event.at) < time(history[step - 1]!.at))
        problems.push(`${name}: ${event.action} at ${at.toISOString()} comes before the step it follows`);
      const changes = typeof event.changes === 'string' ? (JSON.parse(event.changes) as AuditRow['changes']) : event.changes;
      version =
        step === 0
          ? { createdAt: at, createdBy: event.actor_id, ...(entity.workflow ? { [entity.workflow.field]: entity.workflow.initial } : {}) }
          : { ...version };
      version.updatedAt = at;
      if (changes.transition && entity.workflow) version[entity.workflow.field] = changes.transition.to;
      for (const field of entity.fields) {
        const change = changes.fields[field.name];
        if (step > 0 && !change) continue;
        const raw = change ? change[1] : null;
        if (step === 0 && raw === null && engineSetWithoutDefault(field)) {
          version[field.name] = null;
          continue;
        }
        const parsed = parse(model, field, field.type === 'references' ? (raw ?? []) : raw);
        if ('problem' in parsed) problems.push(`${name}: ${field.name} ${JSON.stringify(raw)} on ${event.action}: ${parsed.problem}`);
        version[field.name] = 'problem' in parsed ? raw : parsed.value;
      }
      const withPaths = await withPathValues(model, db, entity, conditions, version);
      for (const broken of checkEntityRules(model, entity, withPaths, at, before, actorContext(event.actor_id))) {
        problems.push(`${name}: breaks ${broken.code} on ${event.action} at ${at.toISOString()} (${broken.message})`);
      }
      if (step === 0) {
        for (const field of entity.fields) {
          const defaultsToNow = field.type === 'datetime' && 'default' in field.spec && field.spec.default === 'now' && field.readOnly;
          if (defaultsToNow && time(version[field.name]) !== time(at))
            problems.push(`${name}: ${field.name} is ${String(version[field.name])}, not its creation time ${at.toISOString()}`);
        }
      }
      before = version;
    }

    for (const field of entity.fields) {
      // A derived value is no part of the record's history (ops/history.ts): the related records keep it.
      if (field.derived) continue;
      if (comparable(version[field.name]) !== comparable(stored[field.name]))
        problems.push(
          `${name}: ${field.name} is ${comparable(stored[field.name])} but its history ends with ${comparable(version[field.name])}`,
        );
      const user = stored[field.name];
      if (field.holderRoles && typeof user === 'number' && !field.holderRoles.some((role) => users.get(user)?.roles.includes(role)))
        problems.push(`${name}: ${field.name} is user #${user}, who holds none of ${field.holderRoles.join(', ')}`);
    }
    if (entity.workflow && version[entity.workflow.field] !== stored[entity.workflow.field])
      problems.push(
        `${name}: in ${String(stored[entity.workflow.field])} but its history ends in ${String(version[entity.workflow.field])}`,
      );
  }

  // Unique keys and `uniqueWhen`, as the database's indexes keep them (a seed that broke one would not have committed: checked all the same).
  const keys = [
    ...[...entity.fields.filter((f) => f.unique).map((f) => [f.name]), ...entity.uniqueTogether].map((fields) => ({
      name: fields.join(' + '),
      fields,
      where: null,
    })),
    ...entity.uniqueWhen.map((rule) => ({ name: `uniqueWhen ${rule.index}`, fields: rule.fields, where: rule.where })),
  ];
  for (const key of keys) {
    const seen = new Map<string, unknown>();
    for (const record of finals) {
      if (key.where && holds(model, entity, key.where, record) !== true) continue;
      const values = key.fields.map((name) => record[name]);
      if (values.some((v) => v === null || v === undefined)) continue;
      const tuple = JSON.stringify(values.map(comparable));
      if (seen.has(tuple))
        problems.push(`${entity.name} #${String(record.id)}: ${key.name} ${tuple} is taken by #${String(seen.get(tuple))} too`);
      else seen.set(tuple, record.id);
    }
  }

  for (const [limitName, limit] of Object.entries(entity.limits)) {
    const max = limit.maxValue;
    if (max === null) continue;
    const counts = new Map<string, number>();
    for (const record of finals) {
      const owner = record[limit.per];
      if (owner === null || owner === undefined) continue;
      if (limit.where && !evaluateCondition(model, limit.where, await withPathValues(model, db, entity, [limit.where], record), now))
        continue;
      counts.set(String(owner), (counts.get(String(owner)) ?? 0) + 1);
    }
    for (const [owner, n] of counts)
      if (n > max) problems.push(`${entity.name}: ${n} records of ${limit.per} ${owner} count towards ${limitName}, at most ${max}`);
  }
  return problems;
}
