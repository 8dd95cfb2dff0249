import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { AppModel, EntityModel } from '../spec/model';
import { SESSION_TABLE, USER_TABLE } from '../store/schema/desired';
import { objectName, quoteIdent, quoteLiteral } from '../store/schema/sql';
import type { DynamicDatabase } from '../store/types';
import { CHANGES_CHANNEL } from './changes';
import { readScopeColumns } from './scope-columns';

/**
 * The change feed's source: statement-level triggers on every entity table (and on sessions and
 * users) that `pg_notify` which rows a statement wrote. A notification sent inside a transaction
 * is delivered only when it commits and dropped when it rolls back, and every writer is seen —
 * ops, the CLI, another server process on the same PostgreSQL — because the database sends it.
 *
 * NOTIFY payloads must stay under 8000 bytes: a statement touching more than MAX_IDS rows (or
 * whose payload would still be too long) is announced without ids, as "some changed".
 */
const MAX_IDS = 500;
/** Deleted rows whose last image travels with the notification (more: ids without images). */
const MAX_IMAGES = 100;
const MAX_PAYLOAD_BYTES = 7900;
const MAX_SESSIONS = 100;

const EVENTS = ['insert', 'update', 'delete', 'truncate'] as const;
const triggerName = (event: (typeof EVENTS)[number]) => `nf_live_${event}`;
const functionName = (table: string) => quoteIdent(objectName(table, [], 'nf_live'));

/** `ids` from the transition table `rows` (null past MAX_IDS), into the variable `ids`. */
const selectIds = (rows: string) =>
  `select case when count(*) <= ${MAX_IDS} then json_agg(s.id) end, count(*) into ids, touched from (select r.id from ${rows} r limit ${MAX_IDS + 1}) s`;

function entityFunction(entity: EntityModel): string {
  const name = quoteLiteral(entity.name);
  const image = readScopeColumns(entity)
    .map((column) => `${quoteLiteral(column)}, r.${quoteIdent(column)}`)
    .join(', ');
  const send = `payload := json_build_object('e', ${name}, 'op', op, 'ids', ids, 'rows', images)::text;
  if octet_length(payload) > ${MAX_PAYLOAD_BYTES} then payload := json_build_object('e', ${name}, 'op', op, 'ids', ids)::text; end if;
  if octet_length(payload) > ${MAX_PAYLOAD_BYTES} then payload := json_build_object('e', ${name}, 'op', op, 'ids', null)::text; end if;
  perform pg_notify(${quoteLiteral(CHANGES_CHANNEL)}, payload);`;
  return `declare
  ids json;
  images json;
  touched bigint;
  op text := lower(left(tg_op, 1));
  payload text;
begin
  if tg_op = 'TRUNCATE' then
    op := 'd';
    touched := 1;
  elsif tg_op = 'DELETE' then
    ${selectIds('old_rows')};
    if touched between 1 and ${MAX_IMAGES} then
      select json_agg(json_build_object(${image})) into images from old_rows r;
    end if;
  else
    ${selectIds('new_rows')};
  end if;
  if touched = 0 then return null; end if;
  ${send}
  return null;
end`;
}

function entityStatements(entity: EntityModel): string[] {
  const table = quoteIdent(entity.table);
  const fn = functionName(entity.table);
  return [
    ...EVENTS.map((event) => `drop trigger if exists ${triggerName(event)} on ${table}`),
    `create or replace function ${fn}() returns trigger language plpgsql as $nf$${entityFunction(entity)}$nf$`,
    `create trigger ${triggerName('insert')} after insert on ${table} referencing new table as new_rows for each statement execute function ${fn}()`,
    `create trigger ${triggerName('update')} after update on ${table} referencing new table as new_rows for each statement execute function ${fn}()`,
    `create trigger ${triggerName('delete')} after delete on ${table} referencing old table as old_rows for each statement execute function ${fn}()`,
    `create trigger ${triggerName('truncate')} after truncate on ${table} for each statement execute function ${fn}()`,
  ];
}

/**
 * Sign-outs and disabled accounts end their open streams; a change of roles or of a user field
 * (the organization a scope compares with) re-filters them.
 */
function accountStatements(model: AppModel): string[] {
  const fields = model.users.fields.map((f) => ` or n.${quoteIdent(f.column)} is distinct from o.${quoteIdent(f.column)}`).join('');
  const sessions = quoteIdent(SESSION_TABLE);
  const users = quoteIdent(USER_TABLE);
  const sessionFn = functionName(SESSION_TABLE);
  const userFn = functionName(USER_TABLE);
  return [
    `drop trigger if exists ${triggerName('delete')} on ${sessions}`,
    `drop trigger if exists ${triggerName('update')} on ${users}`,
    `create or replace function ${sessionFn}() returns trigger language plpgsql as $nf$declare
  ended json;
  touched bigint;
begin
  select case when count(*) <= ${MAX_SESSIONS} then json_agg(s.id) end, count(*) into ended, touched from (select o.id from old_rows o limit ${MAX_SESSIONS + 1}) s;
  if touched > 0 then perform pg_notify(${quoteLiteral(CHANGES_CHANNEL)}, json_build_object('sessions', ended)::text); end if;
  return null;
end$nf$`,
    `create or replace function ${userFn}() returns trigger language plpgsql as $nf$declare
  changed json;
begin
  select json_agg(n.id) into changed from (select n.id from new_rows n join old_rows o on o.id = n.id
    where n.roles is distinct from o.roles or n.disabled_at is distinct from o.disabled_at${fields} limit ${MAX_IDS}) n;
  if changed is not null then perform pg_notify(${quoteLiteral(CHANGES_CHANNEL)}, json_build_object('users', changed)::text); end if;
  return null;
end$nf$`,
    `create trigger ${triggerName('delete')} after delete on ${sessions} referencing old table as old_rows for each statement execute function ${sessionFn}()`,
    `create trigger ${triggerName('update')} after update on ${users} referencing old table as old_rows new table as new_rows for each statement execute function ${userFn}()`,
  ];
}

function liveStatements(model: AppModel): string[] {
  return [...accountStatements(model), ...model.entities.flatMap(entityStatements)];
}

/** What the change feed's triggers are, as a hash: part of the schema's recorded fingerprint. */
export function liveTriggersFingerprint(model: AppModel): string {
  return createHash('sha256')
    .update(JSON.stringify(liveStatements(model)))
    .digest('hex');
}

/** Installs (or replaces) the triggers; runs inside the schema sync's transaction, after the tables. */
export async function installLiveTriggers(trx: DynamicDatabase, model: AppModel): Promise<void> {
  for (const statement of liveStatements(model)) await sql.raw(statement).execute(trx);
}
