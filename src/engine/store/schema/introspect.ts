import { sql } from 'kysely';
import type { DynamicDatabase } from '../types';
import { META_TABLE } from './desired';
import type {
  CatalogueColumn,
  CatalogueConstraint,
  CatalogueIndex,
  CatalogueSchema,
  CatalogueTable,
  ForeignKeyAction,
  SchemaMeta,
} from './types';

const FK_ACTIONS: Readonly<Record<string, ForeignKeyAction>> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

interface TableRow {
  name: string;
  columns:
    | {
        name: string;
        type: string;
        not_null: boolean;
        default: string | null;
        identity: string;
        generated: string;
        comment: string | null;
      }[]
    | null;
  constraints:
    | { name: string; type: string; columns: string[] | null; ref_table: string | null; ref_columns: string[] | null; on_delete: string }[]
    | null;
  indexes:
    { name: string; columns: (string | null)[] | null; method: string; unique: boolean; partial: boolean; constraint: boolean }[] | null;
}

/**
 * Everything the planner needs about the tables of the current schema, in one catalogue query
 * (plus one read of nf_meta when it exists). pg_catalog rather than information_schema: it is
 * several times faster and knows about generated columns, index methods and FK actions.
 */
const CATALOGUE_QUERY = sql<TableRow>`
select c.relname as name,
  (select json_agg(json_build_object(
      'name', a.attname,
      'type', format_type(a.atttypid, a.atttypmod),
      'not_null', a.attnotnull,
      'default', case when a.attgenerated = '' then pg_get_expr(d.adbin, d.adrelid) end,
      'identity', a.attidentity,
      'generated', case when a.attgenerated <> '' then pg_get_expr(d.adbin, d.adrelid) end,
      'comment', col_description(c.oid, a.attnum)
    ) order by a.attnum)
    from pg_attribute a
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
  (select json_agg(json_build_object(
      'name', con.conname,
      'type', con.contype,
      'columns', (select json_agg(att.attname order by k.ord)
                  from unnest(con.conkey) with ordinality as k(attnum, ord)
                  join pg_attribute att on att.attrelid = con.conrelid and att.attnum = k.attnum),
      'ref_table', ref.relname,
      'ref_columns', (select json_agg(att.attname order by k.ord)
                      from unnest(con.confkey) with ordinality as k(attnum, ord)
                      join pg_attribute att on att.attrelid = con.confrelid and att.attnum = k.attnum),
      'on_delete', con.confdeltype
    ) order by con.conname)
    from pg_constraint con
    left join pg_class ref on ref.oid = con.confrelid
    where con.conrelid = c.oid and con.contype in ('p', 'u', 'f', 'x')) as constraints,
  (select json_agg(json_build_object(
      'name', ic.relname,
      'columns', (select json_agg(att.attname order by k.ord)
                  from unnest(ix.indkey::int2[]) with ordinality as k(attnum, ord)
                  left join pg_attribute att on att.attrelid = ix.indrelid and att.attnum = k.attnum),
      'method', am.amname,
      'unique', ix.indisunique,
      'partial', ix.indpred is not null,
      'constraint', exists (select 1 from pg_constraint pc where pc.conindid = ix.indexrelid and pc.conrelid = c.oid)
    ) order by ic.relname)
    from pg_index ix
    join pg_class ic on ic.oid = ix.indexrelid
    join pg_am am on am.oid = ic.relam
    where ix.indrelid = c.oid) as indexes
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
where n.nspname = current_schema() and c.relkind in ('r', 'p')
order by c.relname`;

function toTable(row: TableRow): CatalogueTable {
  const columns: CatalogueColumn[] = (row.columns ?? []).map((c) => ({
    name: c.name,
    type: c.type,
    nullable: !c.not_null,
    default: c.default,
    identity: c.identity !== '',
    generated: c.generated,
    comment: c.comment,
  }));
  const constraints: CatalogueConstraint[] = (row.constraints ?? []).map((c) => ({
    name: c.name,
    kind: c.type === 'p' ? 'primary' : c.type === 'u' ? 'unique' : c.type === 'x' ? 'exclusion' : 'foreign',
    columns: c.columns ?? [],
    ...(c.type === 'f'
      ? { references: { table: c.ref_table ?? '', columns: c.ref_columns ?? [] }, onDelete: FK_ACTIONS[c.on_delete] ?? 'no action' }
      : {}),
  }));
  const indexes: CatalogueIndex[] = (row.indexes ?? []).map((i) => ({
    name: i.name,
    columns: i.columns ?? [],
    method: i.method,
    unique: i.unique,
    partial: i.partial,
    constraint: i.constraint,
  }));
  return { name: row.name, columns, constraints, indexes };
}

interface MetaRow {
  key: string;
  value: unknown;
}

function toMeta(rows: readonly MetaRow[]): SchemaMeta | null {
  if (rows.length === 0) return null;
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  const spec = byKey.get('spec') as { name?: unknown } | undefined;
  const schema = byKey.get('schema') as { fingerprint?: unknown; managedTables?: unknown } | undefined;
  const managed = schema?.managedTables;
  return {
    specName: typeof spec?.name === 'string' ? spec.name : null,
    fingerprint: typeof schema?.fingerprint === 'string' ? schema.fingerprint : null,
    managedTables:
      managed && typeof managed === 'object'
        ? Object.fromEntries(Object.entries(managed).filter((e): e is [string, string] => typeof e[1] === 'string'))
        : {},
  };
}

/** Reads the tables of the current schema (normally "public") and what nf_meta recorded. */
export async function introspectSchema(db: DynamicDatabase): Promise<CatalogueSchema> {
  const { rows } = await CATALOGUE_QUERY.execute(db);
  const tables = rows.map(toTable);
  const hasMeta = tables.some((t) => t.name === META_TABLE && t.columns.some((c) => c.name === 'value'));
  const meta = hasMeta ? toMeta(await db.selectFrom(META_TABLE).select(['key', 'value']).execute()) : null;
  return { tables, meta };
}

/**
 * Only what nf_meta recorded at the last sync, without reading the catalogue: null when there is
 * no nf_meta table (a new database) or it cannot be read as ours.
 */
export async function readRecordedMeta(db: DynamicDatabase): Promise<SchemaMeta | null> {
  const { rows } = await sql<{ present: boolean }>`select to_regclass(${META_TABLE}) is not null as present`.execute(db);
  if (!rows[0]?.present) return null;
  try {
    return toMeta(await db.selectFrom(META_TABLE).select(['key', 'value']).execute());
  } catch {
    return null;
  }
}
