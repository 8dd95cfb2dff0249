import { plainDefault } from '../../spec/field-default';
import type { AppModel, EntityModel, FieldModel } from '../../spec/model';
import { hasColumn, JOIN_RECORD, JOIN_TARGET, joinFields } from '../../spec/join-fields';
import { declaredWidgets } from '../../spec/screens/home';
import { autoTransitionIndexes } from './auto-indexes';
import { dueQueueIndexes } from './due-indexes';
import { digitsOf } from '../../spec/field-numbers';
import { enumOrderTag } from './enum-order';
import { uniqueWhenIndexes } from './unique-when-indexes';
import { exclusionConstraints } from './exclusive-constraints';
import { objectName, quoteIdent, quoteLiteral } from './sql';
import { webhookTables } from '../../notify/webhooks/tables';
import { foreignKey, ID, index, NOW, table, TIMESTAMPTZ } from './table-helpers';
import { notifyTables } from './notify-tables';
import type { ColumnDef, ForeignKeyDef, IndexDef, TableDef, UniqueDef } from './types';
import { FILE_CHUNK_TABLE, FILE_TABLE } from '../../files/file-tables';

export const USER_TABLE = 'nf_user';
export const SESSION_TABLE = 'nf_session';
export const API_TOKEN_TABLE = 'nf_api_token';
export const INVITE_TABLE = 'nf_invite';
export const SIGN_IN_ATTEMPT_TABLE = 'nf_sign_in_attempt';
/** One-time codes that /setup asks for while the application has no user (identity/setup-code.ts). */
export const SETUP_CODE_TABLE = 'nf_setup_code';
export const META_TABLE = 'nf_meta';
export const AUDIT_TABLE = 'nf_audit';
export const SEARCH_COLUMN = 'search';
/** Running totals for the home's numbers, kept by triggers (tally.ts). */
export const TALLY_TABLE = 'nf_tally';
/** Lists saved under a name by their users (engine/views). */
export const SAVED_VIEW_TABLE = 'nf_saved_view';

/** Text longer than this could exceed a btree entry (~2.7 kB), so such fields are not indexed. */
const MAX_INDEXED_TEXT_LENGTH = 2000;

/**
 * The engine's own tables: accounts, sessions, API tokens, invitations, sign-in throttling, the
 * audit trail and what the last sync recorded.
 */
export function systemTables(model?: AppModel): TableDef[] {
  const userFields = model ? userFieldsOf(model) : { columns: [], foreignKeys: [], indexes: [] };
  return [
    table(
      USER_TABLE,
      [
        ID,
        // Stored lower-cased by identity; unique as stored.
        { name: 'email', type: 'text', nullable: false },
        { name: 'name', type: 'text', nullable: false, default: "''::text" },
        { name: 'password_hash', type: 'text', nullable: false },
        { name: 'roles', type: 'text[]', nullable: false, default: "'{}'::text[]" },
        { name: 'disabled_at', type: TIMESTAMPTZ, nullable: true },
        // The user's own choices (theme, ...): src/engine/preferences.
        { name: 'preferences', type: 'jsonb', nullable: false, default: "'{}'::jsonb" },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
        { name: 'updated_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
        // The spec's user fields (users.fields), after the engine's own columns.
        ...userFields.columns,
      ],
      {
        uniques: [{ name: objectName(USER_TABLE, ['email'], 'key'), columns: ['email'] }],
        foreignKeys: userFields.foreignKeys,
        indexes: userFields.indexes,
      },
    ),
    table(
      SESSION_TABLE,
      [
        // The sha256 (hex) of the token: the token itself is never stored.
        { name: 'id', type: 'text', nullable: false },
        { name: 'user_id', type: 'bigint', nullable: false },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
        { name: 'last_seen_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
        { name: 'expires_at', type: TIMESTAMPTZ, nullable: false },
      ],
      {
        foreignKeys: [foreignKey(SESSION_TABLE, 'user_id', USER_TABLE, 'cascade')],
        indexes: [index(SESSION_TABLE, ['user_id']), index(SESSION_TABLE, ['expires_at'])],
      },
    ),
    table(
      API_TOKEN_TABLE,
      [
        // Personal API tokens (Authorization: Bearer): only the sha256 (hex) of the token is kept.
        ID,
        { name: 'user_id', type: 'bigint', nullable: false },
        { name: 'name', type: 'text', nullable: false },
        { name: 'token_hash', type: 'text', nullable: false },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
        { name: 'expires_at', type: TIMESTAMPTZ, nullable: true },
        { name: 'last_used_at', type: TIMESTAMPTZ, nullable: true },
        { name: 'revoked_at', type: TIMESTAMPTZ, nullable: true },
      ],
      {
        uniques: [{ name: objectName(API_TOKEN_TABLE, ['token_hash'], 'key'), columns: ['token_hash'] }],
        foreignKeys: [foreignKey(API_TOKEN_TABLE, 'user_id', USER_TABLE, 'cascade')],
        indexes: [index(API_TOKEN_TABLE, ['user_id'])],
      },
    ),
    table(
      INVITE_TABLE,
      [
        // One-time invitations to create an account: only the sha256 (hex) of the link's token is kept.
        ID,
        { name: 'email', type: 'text', nullable: false },
        { name: 'roles', type: 'text[]', nullable: false, default: "'{}'::text[]" },
        { name: 'token_hash', type: 'text', nullable: false },
        { name: 'invited_by', type: 'bigint', nullable: true },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
        { name: 'expires_at', type: TIMESTAMPTZ, nullable: false },
        { name: 'used_at', type: TIMESTAMPTZ, nullable: true },
      ],
      {
        uniques: [{ name: objectName(INVITE_TABLE, ['token_hash'], 'key'), columns: ['token_hash'] }],
        foreignKeys: [foreignKey(INVITE_TABLE, 'invited_by', USER_TABLE, 'set null')],
        indexes: [index(INVITE_TABLE, ['invited_by'])],
      },
    ),
    table(
      SIGN_IN_ATTEMPT_TABLE,
      [
        // Failed sign-ins per account ("account:<sha256 of the email>") or address ("ip:<address>")
        // in a fixed window, kept in the database so that every server counts the same attempts.
        { name: 'key', type: 'text', nullable: false },
        { name: 'failures', type: 'integer', nullable: false, default: '0' },
        { name: 'window_started_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
      ],
      { primaryKey: ['key'], indexes: [index(SIGN_IN_ATTEMPT_TABLE, ['window_started_at'])] },
    ),
    table(
      SETUP_CODE_TABLE,
      [
        // The sha256 (hex) of a setup code, one per server start without users; all are deleted with the first user.
        { name: 'code_hash', type: 'text', nullable: false },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
      ],
      { primaryKey: ['code_hash'] },
    ),
    table(
      AUDIT_TABLE,
      [
        ID,
        { name: 'at', type: TIMESTAMPTZ, nullable: false, default: NOW },
        { name: 'actor_id', type: 'bigint', nullable: true },
        { name: 'entity', type: 'text', nullable: false },
        { name: 'record_id', type: 'bigint', nullable: false },
        /** create, update, delete, or the name of a workflow transition. */
        { name: 'action', type: 'text', nullable: false },
        { name: 'changes', type: 'jsonb', nullable: false, default: "'{}'::jsonb" },
      ],
      {
        foreignKeys: [foreignKey(AUDIT_TABLE, 'actor_id', USER_TABLE, 'set null')],
        indexes: [index(AUDIT_TABLE, ['entity', 'record_id', 'id']), index(AUDIT_TABLE, ['actor_id', 'id'])],
      },
    ),
    table(
      TALLY_TABLE,
      [
        // Running totals kept by triggers on the entity tables (see tally.ts): records per value
        // of a field, per day of a datetime field, and sums, for everyone (owner_field '') or per owner.
        { name: 'entity', type: 'text', nullable: false },
        { name: 'owner_field', type: 'text', nullable: false },
        { name: 'owner', type: 'bigint', nullable: false },
        { name: 'dimension', type: 'text', nullable: false },
        { name: 'value', type: 'text', nullable: false },
        { name: 'measure', type: 'text', nullable: false },
        { name: 'amount', type: 'numeric', nullable: false, default: '0' },
      ],
      { primaryKey: ['entity', 'owner_field', 'owner', 'dimension', 'value', 'measure'] },
    ),
    table(
      SAVED_VIEW_TABLE,
      [
        // A list's state (filters, search, sort, columns) under a name; shared_with: roles whose members see it too.
        ID,
        { name: 'owner_id', type: 'bigint', nullable: false },
        { name: 'entity', type: 'text', nullable: false },
        { name: 'name', type: 'text', nullable: false },
        { name: 'state', type: 'jsonb', nullable: false, default: "'{}'::jsonb" },
        { name: 'shared_with', type: 'text[]', nullable: false, default: "'{}'::text[]" },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
        { name: 'updated_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
      ],
      {
        uniques: [{ name: objectName(SAVED_VIEW_TABLE, ['owner_id', 'entity', 'name'], 'key'), columns: ['owner_id', 'entity', 'name'] }],
        foreignKeys: [foreignKey(SAVED_VIEW_TABLE, 'owner_id', USER_TABLE, 'cascade')],
        indexes: [index(SAVED_VIEW_TABLE, ['shared_with'], 'gin')],
      },
    ),
    ...notifyTables(),
    ...fileTables(),
    table(
      META_TABLE,
      [
        { name: 'key', type: 'text', nullable: false },
        { name: 'value', type: 'jsonb', nullable: true },
      ],
      { primaryKey: ['key'] },
    ),
    ...webhookTables(model),
  ];
}

/** Uploaded files (engine/files): metadata, and the bytes when PostgreSQL keeps them. */
function fileTables(): TableDef[] {
  return [
    table(
      FILE_TABLE,
      [
        ID,
        { name: 'name', type: 'text', nullable: false },
        { name: 'size', type: 'bigint', nullable: false, default: '0' },
        { name: 'content_type', type: 'text', nullable: false, default: "'application/octet-stream'::text" },
        { name: 'sha256', type: 'text', nullable: true },
        { name: 'has_thumbnail', type: 'boolean', nullable: false, default: 'false' },
        // The thumbnail's own size, so that pages set an image's width and height (no layout jump).
        { name: 'thumbnail_width', type: 'integer', nullable: true },
        { name: 'thumbnail_height', type: 'integer', nullable: true },
        { name: 'state', type: 'text', nullable: false, default: "'uploading'::text" },
        { name: 'uploaded_by', type: 'bigint', nullable: true },
        // Set once attached: which record of which entity holds it, in which field.
        { name: 'entity', type: 'text', nullable: true },
        { name: 'field', type: 'text', nullable: true },
        { name: 'record_id', type: 'bigint', nullable: true },
        { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
      ],
      {
        foreignKeys: [foreignKey(FILE_TABLE, 'uploaded_by', USER_TABLE, 'set null')],
        indexes: [index(FILE_TABLE, ['entity', 'record_id']), index(FILE_TABLE, ['state', 'created_at'])],
      },
    ),
    table(
      FILE_CHUNK_TABLE,
      [
        { name: 'file_id', type: 'bigint', nullable: false },
        { name: 'part', type: 'text', nullable: false },
        { name: 'seq', type: 'integer', nullable: false },
        { name: 'data', type: 'bytea', nullable: false },
      ],
      { primaryKey: ['file_id', 'part', 'seq'], foreignKeys: [foreignKey(FILE_CHUNK_TABLE, 'file_id', FILE_TABLE, 'cascade')] },
    ),
  ];
}

/**
 * The columns of the spec's user fields on nf_user. A reference or user field never blocks a
 * delete: the account only loses the value (set null). Each is indexed, for the deletes that
 * follow the keys and for scopes that pick the users of a team.
 */
function userFieldsOf(model: AppModel): { columns: ColumnDef[]; foreignKeys: ForeignKeyDef[]; indexes: IndexDef[] } {
  const foreignKeys: ForeignKeyDef[] = [];
  const indexes: IndexDef[] = [];
  for (const field of model.users.fields) {
    const target =
      field.spec.type === 'reference' ? model.entitiesByName[field.spec.to]?.table : field.spec.type === 'user' ? USER_TABLE : undefined;
    if (!target) continue;
    foreignKeys.push(foreignKey(USER_TABLE, field.column, target, 'set null'));
    indexes.push(index(USER_TABLE, [field.column]));
  }
  return { columns: model.users.fields.map(fieldColumn), foreignKeys, indexes };
}

function columnType(field: FieldModel): string {
  switch (field.spec.type) {
    case 'text':
    case 'markdown':
    case 'enum':
    case 'email':
    case 'url':
      return 'text';
    case 'integer':
      return 'integer';
    case 'decimal':
    case 'money':
      return `numeric(${digitsOf(field).precision},${digitsOf(field).scale})`;
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return TIMESTAMPTZ;
    case 'reference':
    case 'user':
      return 'bigint';
    case 'references':
    case 'users':
    case 'file':
    case 'files':
      throw new Error(`${field.name} is kept in the join table ${field.joinTable}, not in a column`);
  }
}

/** The value given to rows already in the table when a required field is added to it. */
function backfillFor(field: FieldModel): string | undefined {
  const spec = field.spec;
  if (!('default' in spec) || spec.default === undefined) return undefined;
  if (spec.type === 'datetime') return spec.default === 'now' ? NOW : undefined;
  if (spec.type === 'user') return undefined;
  // A constant's value (resolved in the model); nothing for a reference to the actor's own record.
  const value = plainDefault(field);
  if (typeof value === 'string') return quoteLiteral(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return undefined;
}

function fieldColumn(field: FieldModel): ColumnDef {
  const backfill = field.required ? backfillFor(field) : undefined;
  const derivedDefault = field.derived ? DERIVED_DEFAULTS[field.derived.kind] : undefined;
  return {
    name: field.column,
    type: columnType(field),
    nullable: !field.required,
    field: field.name,
    ...(backfill ? { backfill } : {}),
    ...(derivedDefault ? { default: derivedDefault } : {}),
  };
}

/**
 * What a derived value is for a record nothing references yet (a new one): no related records
 * count 0, sum to 0 and do not exist; min and max are empty. Its triggers keep it from then on
 * (derived.ts). As pg_get_expr prints them.
 */
const DERIVED_DEFAULTS: Readonly<Record<NonNullable<FieldModel['derived']>['kind'], string | undefined>> = {
  count: '0',
  sum: '0',
  exists: 'false',
  min: undefined,
  max: undefined,
};

/** Field types whose text a generated tsvector column may read (the cast must be immutable). */
const SEARCHABLE_TYPES = new Set(['text', 'markdown', 'enum', 'email', 'url', 'integer', 'decimal']);

export function searchExpression(fields: readonly FieldModel[]): string | null {
  const parts = fields
    .filter((f) => SEARCHABLE_TYPES.has(f.type))
    .map((f) => {
      const column = quoteIdent(f.column);
      return `coalesce(${columnType(f) === 'text' ? column : `${column}::text`}, '')`;
    });
  if (parts.length === 0) return null;
  return `to_tsvector('simple', ${parts.join(" || ' ' || ")})`;
}

function isIndexable(field: FieldModel): boolean {
  // Filters by a references field read its join table, which has its own index.
  if (!hasColumn(field)) return false;
  if (field.spec.type === 'markdown') return false;
  if (field.spec.type === 'text') return (field.spec.maxLength ?? Infinity) <= MAX_INDEXED_TEXT_LENGTH;
  return true;
}

/** The column a list sort/filter/column name refers to: a field, a system column, or the state. */
function columnFor(entity: EntityModel, name: string): string | null {
  const field = entity.fieldsByName[name];
  if (field) return isIndexable(field) ? field.column : null;
  if (entity.workflow && name === entity.workflow.field) return entity.workflow.column;
  const system = entity.systemColumns.find((c) => c.name === name);
  return system ? system.column : null;
}

function entityTable(model: AppModel, entity: EntityModel): TableDef {
  const name = entity.table;
  const columns: ColumnDef[] = [
    ID,
    { name: 'version', type: 'integer', nullable: false, default: '1' },
    { name: 'created_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
    { name: 'updated_at', type: TIMESTAMPTZ, nullable: false, default: NOW },
    { name: 'created_by', type: 'bigint', nullable: true },
    { name: 'updated_by', type: 'bigint', nullable: true },
  ];
  if (entity.workflow) {
    columns.push({
      name: entity.workflow.column,
      type: 'text',
      nullable: false,
      field: entity.workflow.field,
      backfill: quoteLiteral(entity.workflow.initial),
    });
  }
  columns.push(...entity.fields.filter(hasColumn).map(fieldColumn));

  const foreignKeys: ForeignKeyDef[] = [
    foreignKey(name, 'created_by', USER_TABLE, 'set null'),
    foreignKey(name, 'updated_by', USER_TABLE, 'set null'),
  ];
  for (const field of entity.fields) {
    if (field.spec.type === 'reference') {
      const target = model.entitiesByName[field.spec.to];
      if (!target) continue;
      const onDelete = field.spec.onDelete === 'cascade' ? 'cascade' : field.spec.onDelete === 'setNull' ? 'set null' : 'restrict';
      foreignKeys.push(foreignKey(name, field.column, target.table, onDelete));
    } else if (field.spec.type === 'user') {
      foreignKeys.push(foreignKey(name, field.column, USER_TABLE, field.required ? 'restrict' : 'set null'));
    }
  }

  const uniques: UniqueDef[] = [];
  const addUnique = (cols: readonly string[]) => {
    if (cols.length === 0 || uniques.some((u) => u.columns.join() === cols.join())) return;
    uniques.push({ name: objectName(name, cols, 'key'), columns: cols });
  };
  for (const field of entity.fields) if (field.unique) addUnique([field.column]);
  for (const together of entity.uniqueTogether) {
    addUnique(together.map((f) => entity.fieldsByName[f]?.column).filter((c): c is string => c !== undefined));
  }

  // Keyset pagination reads (column, id) in index order, so every sortable or filterable column
  // gets a (column, id) index; foreign keys need theirs for deletes of the referenced row.
  const indexed = new Set<string>(['created_at', 'updated_at', 'created_by', 'updated_by']);
  if (entity.workflow) indexed.add(entity.workflow.column);
  for (const field of entity.fields) {
    // Due times are what queues sort and filter by (overdue first), listed or not.
    if ((['reference', 'user', 'enum'].includes(field.type) && hasColumn(field)) || field.due) indexed.add(field.column);
  }
  // Charts count records per day of a datetime field: the days shown are an index range.
  const charted = declaredWidgets(model).flatMap((w) =>
    w.kind === 'chart' && w.entity === entity.name ? w.series.map((s) => s.field) : [],
  );
  // A role's own list is sorted and filtered as the list is.
  const lists = [entity.list, ...Object.values(entity.list.roles)];
  for (const fieldName of [...lists.flatMap((list) => [list.sort.field, ...list.filters, ...list.columns]), ...charted]) {
    const column = columnFor(entity, fieldName);
    if (column && column !== 'id') indexed.add(column);
  }
  const indexes: IndexDef[] = [...indexed].map((column) => index(name, [column, 'id']));
  // Lists sort enums in their declared order (store/schema/enum-order.ts): by position, then id.
  for (const field of entity.fields) {
    if (field.spec.type !== 'enum') continue;
    const values = field.spec.values;
    indexes.push({
      name: objectName(name, [field.column, 'order', enumOrderTag(values)], 'idx'),
      columns: ['id'],
      method: 'btree',
      order: { column: field.column, values },
    });
  }

  indexes.push(...dueQueueIndexes(entity));
  indexes.push(...autoTransitionIndexes(entity));
  indexes.push(...uniqueWhenIndexes(model, entity));

  const searchFields = entity.searchFields.map((f) => entity.fieldsByName[f]).filter((f): f is FieldModel => f !== undefined);
  const search = searchExpression(searchFields);
  if (search) {
    columns.push({ name: SEARCH_COLUMN, type: 'tsvector', nullable: true, generated: search });
    indexes.push(index(name, [SEARCH_COLUMN], 'gin'));
  }

  const exclusions = exclusionConstraints(model, entity);
  return { ...table(name, columns, { entity: entity.name, uniques, foreignKeys, indexes }), ...(exclusions.length ? { exclusions } : {}) };
}

/**
 * The join table of each set: one row per (record, referenced record or user), both ends
 * deleted with either record (deleting a tag takes it off every article; an account deleted
 * leaves every set of users it was in). The primary key
 * serves "the tags of these articles"; the index on the target serves "articles with any of
 * these tags" and the cascade from a deleted target.
 */
function joinTables(model: AppModel, entity: EntityModel): TableDef[] {
  return joinFields(entity).flatMap((field) => {
    const target =
      field.type === 'users' ? USER_TABLE : field.files ? FILE_TABLE : field.referenceTo && model.entitiesByName[field.referenceTo]?.table;
    if (!target) return [];
    const name = field.joinTable;
    return [
      table(
        name,
        [
          { name: JOIN_RECORD, type: 'bigint', nullable: false },
          { name: JOIN_TARGET, type: 'bigint', nullable: false },
        ],
        {
          entity: `${entity.name}.${field.name}`,
          primaryKey: [JOIN_RECORD, JOIN_TARGET],
          foreignKeys: [foreignKey(name, JOIN_RECORD, entity.table, 'cascade'), foreignKey(name, JOIN_TARGET, target, 'cascade')],
          indexes: [index(name, [JOIN_TARGET, JOIN_RECORD])],
        },
      ),
    ];
  });
}

/** The tables the spec needs: the engine's own, then one per entity, in spec order. */
export function desiredSchema(model: AppModel): TableDef[] {
  return [
    ...systemTables(model),
    ...model.entities.map((entity) => entityTable(model, entity)),
    ...model.entities.flatMap((entity) => joinTables(model, entity)),
  ];
}
