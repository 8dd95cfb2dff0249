import { sql, type AliasedRawBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { Actor } from '../ground/actor';
import type { RecordValue } from '../ground/record-value';
import type { RecordData } from '../ops/types';
import { AUTHOR_COLUMNS } from '../spec/author-columns';
import type { AppModel, EntityModel } from '../spec/model';
import type { Scope } from '../spec/types';
import { scopesUnion, type RowScope } from './authorize';
import { readableFields } from './fields';
import { rolesOf, type RolePolicy } from './policy';

/*
 * Which fields of a record the actor reads, row by row. A grant's field rules (hiddenFields, and
 * the authors hidden from `public`) hold on the records that grant lets the actor see (its list
 * or read scope): a record seen through several grants shows what any of them shows; a record
 * seen through one grant only shows what that one shows. A writer who sees another team's
 * published article only through the public grant therefore does not see its team, while the
 * same writer sees the team of their own team's articles.
 *
 * Grants with the same field rules form one group; most actors have one group (or one that
 * sees every record and hides least), and then every row shows the same fields, decided without
 * a look at the row. Otherwise the query that reads the rows also selects, per group, whether the
 * group sees the row (`nf_sees_<n>`), and a field read on some rows only is filtered, searched,
 * sorted and counted as empty on the rows where it is hidden (`readableWhere`), so no answer tells
 * its hidden values apart.
 */

/** Declared fields and author columns: the names field rules decide on. */
function ruledNames(entity: EntityModel): readonly string[] {
  return [...entity.fields.map((f) => f.name), ...AUTHOR_COLUMNS];
}

interface SightGroup {
  /** Ruled names this group's grants read. */
  readonly reads: ReadonlySet<string>;
  /** The records the group's grants let the actor see (list or read). */
  readonly sees: RowScope;
}

/** How the actor reads an entity's fields, row by row. */
export interface FieldSight {
  /** Ruled names readable on some record the actor sees: what a record of theirs may carry. */
  readonly readable: ReadonlySet<string>;
  /** True when every record the actor sees shows the same fields (`readable`). */
  readonly uniform: boolean;
  /** The records on which `name` is readable, as SQL; null when on every record the actor sees (or on none). */
  readableWhere(name: string): RawBuilder<SqlBool> | null;
  /** Select expressions telling which groups see the row (none when uniform). */
  readonly columns: readonly AliasedRawBuilder<boolean, string>[];
  /** The ruled names readable on the row read with `columns`. */
  readableOn(row: Readonly<Record<string, unknown>>): ReadonlySet<string>;
  /** The record without what the grants that let the actor see it hide (the properties are dropped). */
  redact(record: RecordData, row: Readonly<Record<string, unknown>>): RecordData;
}

/** The scopes through which the grant lets the actor see records: its list and read scopes. */
function seeingScopes(grant: RolePolicy): Scope[] {
  return [grant.scopes.list, grant.scopes.read].filter((s): s is Scope => s !== undefined);
}

/** The record with only the ruled names in `readable` (every other property kept). */
export function keepReadable(entity: EntityModel, record: RecordData, readable: ReadonlySet<string>): RecordData {
  const ruled = ruledNames(entity);
  if (ruled.every((name) => readable.has(name))) return record;
  const ruledSet = new Set(ruled);
  const kept: Record<string, RecordValue> = {};
  for (const [key, value] of Object.entries(record)) if (!ruledSet.has(key) || readable.has(key)) kept[key] = value as RecordValue;
  return kept as unknown as RecordData;
}

function uniformSight(entity: EntityModel, readable: ReadonlySet<string>): FieldSight {
  return {
    readable,
    uniform: true,
    readableWhere: () => null,
    columns: [],
    readableOn: () => readable,
    redact: (record) => keepReadable(entity, record, readable),
  };
}

const column = (index: number) => `nf_sees_${index}`;

/** The actor's sight of the entity's fields (see above). */
export function fieldSight(model: AppModel, entity: EntityModel, actor: Actor): FieldSight {
  const ruled = ruledNames(entity);
  // Grants by the ruled names they hide; the first of a group stands for all of it.
  const byRules = new Map<string, { first: RolePolicy; grants: RolePolicy[] }>();
  for (const grant of rolesOf(entity, actor)) {
    if (!grant.sees) continue;
    const key = ruled.filter((name) => grant.hidden.has(name)).join(',');
    const group = byRules.get(key);
    if (group) group.grants.push(grant);
    else byRules.set(key, { first: grant, grants: [grant] });
  }
  const readable = new Set(readableFields(entity, actor));
  if (byRules.size <= 1) return uniformSight(entity, readable);

  const groups: SightGroup[] = [];
  for (const { first, grants } of byRules.values()) {
    const sees = scopesUnion(model, entity, actor, grants.flatMap(seeingScopes));
    if (sees) groups.push({ reads: new Set(ruled.filter((name) => !first.hidden.has(name))), sees });
  }
  // A group that sees every record and reads all that any group reads decides alone.
  if (groups.some((g) => g.sees.all && [...readable].every((name) => g.reads.has(name)))) return uniformSight(entity, readable);

  // Names every group reads, or that a group seeing every record reads, need no look at the row.
  const everywhere = new Set(
    ruled.filter((name) => groups.every((g) => g.reads.has(name)) || groups.some((g) => g.sees.all && g.reads.has(name))),
  );
  const where = new Map<string, RawBuilder<SqlBool>>();
  for (const name of readable) {
    if (everywhere.has(name)) continue;
    const seeing = groups.filter((g) => g.reads.has(name)).map((g) => g.sees.sql);
    where.set(name, sql<SqlBool>`(${sql.join(seeing, sql` or `)})`);
  }
  const readableOn = (row: Readonly<Record<string, unknown>>): ReadonlySet<string> => {
    const on = new Set(everywhere);
    groups.forEach((group, index) => {
      if (group.sees.all || row[column(index)] === true) for (const name of group.reads) on.add(name);
    });
    return on;
  };
  return {
    readable,
    uniform: false,
    readableWhere: (name) => where.get(name) ?? null,
    columns: groups.map((group, index) => sql<boolean>`(${group.sees.sql})`.as(column(index))),
    readableOn,
    redact: (record, row) => keepReadable(entity, record, readableOn(row)),
  };
}
