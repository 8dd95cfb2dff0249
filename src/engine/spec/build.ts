import type {
  AppModel,
  BoardModel,
  EntityModel,
  FieldModel,
  FileLimits,
  ListModel,
  RoleListModel,
  SortModel,
  SystemColumn,
  UsersModel,
  WorkflowModel,
} from './model';
import { buildUniqueWhen } from './unique-when';
import { buildExclusive } from './exclusive';
import { buildLimits } from './limit-max';
import { dateBoundRules } from './date-bounds';
import { buildAuto } from './auto';
import { buildDue } from './due';
import { buildComputed } from './computed';
import { buildFieldDefault } from './field-default';
import { buildDerived } from './derived';
import { decimalDigits, moneyCurrency, moneyDigits, numberBounds } from './field-numbers';
import { DEFAULT_LOCALE } from '../numbers/currency';
import { withFieldCurrencies } from './money-currencies';
import { buildGuards } from './guards';
import { defaultPlural, entityLabels, humanize, tableName, toSnakeCase } from './naming';
import { declaredValue, nameTable } from './own-names';
import { fieldSamples } from './samples';
import type { AppSpec, ConstantRef, EntitySpec, FieldSpec, FileField, FilesField, WorkflowSpec } from './types';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES } from '../files/file-limits';
import { MAX_REFERENCES } from './join-fields';
import { validateSpec } from './validate';
import { SpecError } from './spec-error';
import { buildDetails, type EntityWithoutDetails } from './screens/details';
import { buildDocumentation } from './screens/documentation';
import { buildPresentation } from './screens/presentation';
import { buildHome } from './screens/home';
import { buildRoutes } from './screens/routes';
import { conditionBook } from '../condition/book';
import { modelConditions } from './model-conditions';
import { buildReferenceEffects, buildTargets, ownEffects } from './consequences';
import { UTC } from '../time/zone';
import { DEFAULT_CALENDAR, type WorkingCalendar } from '../time/working-days';
import { buildCalendar } from './calendar';
import { buildWebhooks } from './webhooks';
import { buildNotifications } from './notifications';

export const SYSTEM_COLUMNS: readonly SystemColumn[] = [
  { name: 'id', column: 'id', label: 'ID' },
  { name: 'version', column: 'version', label: 'Version' },
  { name: 'createdAt', column: 'created_at', label: 'Created' },
  { name: 'updatedAt', column: 'updated_at', label: 'Updated' },
  { name: 'createdBy', column: 'created_by', label: 'Created by' },
  { name: 'updatedBy', column: 'updated_by', label: 'Updated by' },
];

const DEFAULT_PAGE_SIZE = 50;
const FILTERABLE_TYPES = new Set(['enum', 'reference', 'user', 'boolean']);

/**
 * Checks a raw spec and fills in its defaults, once at boot. Throws `SpecError` listing every
 * problem with the place it was found; returns the model the rest of the engine reads.
 */
export function buildModel(raw: AppSpec): AppModel {
  const issues = validateSpec(raw);
  if (issues.length > 0) throw new SpecError(issues);
  const spec = withFieldCurrencies(raw);

  const calendar = buildCalendar(spec);
  const bare = Object.entries(spec.entities ?? {}).map(([name, entity]) =>
    buildEntity(spec, calendar, name, entity, spec.workflows?.[name]),
  );
  // Detail pages show other entities' records, so they are built once every entity is.
  const notifications = buildNotifications(spec, calendar);
  const webhooks = buildWebhooks(spec);
  const entities: EntityModel[] = bare.map((entity) => ({
    ...entity,
    details: buildDetails(spec, entity, bare),
    notifications: notifications.filter((n) => n.entity === entity.name),
    webhookEvents: webhooks.flatMap((w) => w.events).filter((e) => e.entity === entity.name),
  }));
  const entitiesByName = nameTable(entities.map((e) => [e.name, e]));
  const navigationNames = spec.screens?.navigation ?? entities.map((e) => e.name);
  const home = buildHome(spec, entitiesByName);
  const routes = buildRoutes(spec, entitiesByName);

  return {
    spec,
    name: spec.name,
    title: spec.purpose?.title ?? humanize(spec.name),
    summary: spec.purpose?.summary ?? null,
    summaries: Object.fromEntries(Object.entries(spec.purpose?.roles ?? {}).map(([role, words]) => [role, words.summary])),
    audience: spec.purpose?.audience ?? [],
    timeZone: spec.purpose?.timeZone ?? UTC,
    locale: spec.purpose?.locale ?? DEFAULT_LOCALE,
    entities,
    entitiesByName,
    entitiesByPlural: nameTable(entities.map((e) => [e.plural, e])),
    navigation: navigationNames.map((n) => declaredValue(entitiesByName, n, 'entity')),
    labels: spec.screens?.labels ?? {},
    home,
    routes,
    documentation: buildDocumentation(spec),
    roles: spec.roles ?? {},
    users: buildUsers(spec, calendar),
    calls: spec.calls ?? {},
    errors: spec.errors ?? {},
    constants: spec.constants ?? {},
    calendar,
    conditions: conditionBook(spec.constants ?? {}, modelConditions(entities, home, routes), calendar),
    webhooks,
    notifications,
    watch: spec.watch ?? {},
  };
}

/**
 * One field with its defaults filled in: of an entity, or of a custom call's input or output
 * (a money field's currency is already on its spec: ./money-currencies.ts).
 */
export function buildField(
  name: string,
  field: FieldSpec,
  constants: AppSpec['constants'] = {},
  calendar: WorkingCalendar = DEFAULT_CALENDAR,
): FieldModel {
  const currency = field.type === 'money' ? moneyCurrency(field) : null;
  const due = field.type === 'datetime' && field.due ? buildDue(field.due, constants) : null;
  const bounds = numberBounds(field, constants);
  const computed = 'computed' in field && field.computed ? buildComputed(field.computed, constants, calendar) : null;
  const defaultTo = buildFieldDefault(field, constants);
  return {
    name,
    column: toSnakeCase(name),
    label: field.label ?? humanize(name),
    type: field.type,
    spec: field,
    required: field.required ?? false,
    // The engine writes due times, computed and derived values; no door may.
    readOnly: due !== null || computed !== null || field.derived !== undefined || (field.readOnly ?? false),
    ...(field.writtenBy ? { writtenBy: field.writtenBy } : {}),
    // A slug names one record (its address), so it is unique within the entity.
    unique: computed?.kind === 'slug' || (field.unique ?? false),
    searchable: field.searchable ?? false,
    ...(field.type === 'reference' || field.type === 'references' ? { referenceTo: field.to } : {}),
    ...(field.type === 'references' || field.type === 'users' ? { maxItems: referencesCap(field.maxItems, constants) } : {}),
    ...((field.type === 'user' || field.type === 'users') && field.roles ? { holderRoles: field.roles } : {}),
    ...(field.type === 'reference' && field.within ? { within: field.within } : {}),
    ...(field.type === 'enum' ? { enumValues: field.values } : {}),
    ...(field.type === 'file' || field.type === 'files' ? { files: buildFileLimits(field, constants) } : {}),
    ...(due ? { due } : {}),
    ...(computed ? { computed } : {}),
    ...(defaultTo ? { defaultTo } : {}),
    ...(field.type === 'decimal' ? { decimal: decimalDigits(field) } : {}),
    ...(field.type === 'money' && currency ? { decimal: moneyDigits(field, currency), currency } : {}),
    ...(bounds ? { bounds } : {}),
  };
}

/** The spec's user fields; their columns live on nf_user (prefixed, so they never meet its own). */
function buildUsers(spec: AppSpec, calendar: WorkingCalendar): UsersModel {
  const fields = Object.entries(spec.users?.fields ?? {}).map(([name, field]) => ({
    ...buildField(name, field, spec.constants, calendar),
    column: userFieldColumn(name),
  }));
  return { fields, fieldsByName: nameTable(fields.map((f) => [f.name, f])) };
}

/** The nf_user column of the user field `name`. */
export function userFieldColumn(name: string): string {
  return `f_${toSnakeCase(name)}`;
}

function buildEntity(
  spec: AppSpec,
  calendar: WorkingCalendar,
  name: string,
  entity: EntitySpec,
  workflowSpec: WorkflowSpec | undefined,
): EntityWithoutDetails {
  const table = tableName(name);
  const fields: FieldModel[] = Object.entries(entity.fields).map(([fieldName, field]) => {
    const built = { ...buildField(fieldName, field, spec.constants, calendar), ...fieldSamples(entity, fieldName) };
    // A derived value reads other entities (its related one and the reference to this), so it is resolved here.
    if (field.derived) return { ...built, derived: buildDerived(spec, name, field.derived) };
    // Many-to-many pairs live in a table of their own, named after the entity's and the field's.
    // A file field's files are a set too: pairs of (record, nf_file row), whatever the store keeps the bytes in.
    return field.type === 'references' || field.type === 'users' || field.type === 'file' || field.type === 'files'
      ? { ...built, joinTable: `${table}__${built.column}` }
      : built;
  });
  const fieldsByName = nameTable(fields.map((f) => [f.name, f]));
  const workflow = workflowSpec ? buildWorkflow(workflowSpec, fieldsByName, spec.constants ?? {}, calendar) : null;
  const titleField = entity.titleField ?? fields.find((f) => f.type === 'text')?.name ?? null;
  const { label, pluralLabel } = entityLabels(name, entity);

  const labelOf = (field: string) =>
    fields.find((f) => f.name === field)?.label ?? SYSTEM_COLUMNS.find((c) => c.name === field)?.label ?? field;
  return {
    name,
    label,
    plural: entity.plural ?? defaultPlural(name),
    pluralLabel,
    description: entity.description,
    table,
    titleField,
    fields,
    fieldsByName,
    systemColumns: SYSTEM_COLUMNS,
    workflow,
    list: buildList(spec, name, fields, workflow, titleField),
    presentation: buildPresentation(spec, name, titleField),
    searchFields: fields.filter((f) => f.searchable).map((f) => f.name),
    uniqueTogether: entity.uniqueTogether ?? [],
    uniqueWhen: buildUniqueWhen(table, entity, fields, spec.constants),
    rules: { ...fields.reduce((all, f) => ({ ...all, ...dateBoundRules(f, labelOf) }), {}), ...spec.rules?.[name] },
    limits: buildLimits(spec, entity, fields),
    exclusive: buildExclusive(table, label, entity, fields, spec),
    permissions: spec.permissions?.[name] ?? {},
    ...(entity.writtenBy ? { writtenBy: entity.writtenBy } : {}),
    onCreate: buildReferenceEffects(fieldsByName, entity.onCreate ?? []),
  };
}

function buildWorkflow(
  workflow: WorkflowSpec,
  fieldsByName: EntityModel['fieldsByName'],
  constants: NonNullable<AppSpec['constants']>,
  calendar: WorkingCalendar,
): WorkflowModel {
  const states = Object.entries(workflow.states).map(([name, state]) => ({
    name,
    label: state.label ?? humanize(name),
    initial: state.initial ?? false,
    final: state.final ?? false,
    description: state.description,
    // A role's words replace the label and description it gives; what it leaves out stays the state's own.
    roles: Object.fromEntries(
      Object.entries(state.roles ?? {}).map(([role, words]) => {
        const description = words.description ?? state.description;
        return [role, { label: words.label ?? state.label ?? humanize(name), ...(description ? { description } : {}) }];
      }),
    ),
  }));
  const field = workflow.field ?? 'state';
  const initial = states.find((s) => s.initial) ?? states[0];
  if (!initial) throw new Error('The workflow has no states, though the spec validator requires one.');
  return {
    field,
    column: toSnakeCase(field),
    states,
    initial: initial.name,
    finalError: workflow.finalError ?? 'RECORD_FINAL',
    transitions: Object.entries(workflow.transitions).map(([name, t]) => ({
      name,
      label: t.label ?? humanize(name),
      from: typeof t.from === 'string' ? [t.from] : t.from,
      to: buildTargets(t.to),
      allow: t.allow,
      requires: t.requires ?? [],
      guards: buildGuards(t),
      effects: ownEffects(t.effects ?? []),
      referenceEffects: buildReferenceEffects(fieldsByName, t.effects ?? []),
      comment: t.comment,
      auto: t.auto ? buildAuto(t.auto, constants, calendar) : null,
    })),
  };
}

function buildList(
  spec: AppSpec,
  entityName: string,
  fields: readonly FieldModel[],
  workflow: WorkflowModel | null,
  titleField: string | null,
): ListModel {
  const screen = spec.screens?.lists?.[entityName];
  const defaultColumns = [
    ...(titleField ? [titleField] : []),
    ...(workflow ? [workflow.field] : []),
    ...fields.filter((f) => f.name !== titleField && f.type !== 'markdown').map((f) => f.name),
  ].slice(0, 6);
  const columns = screen?.columns ?? defaultColumns;
  // By default a list filters by those of its columns that can be filtered.
  const filtersOf = (shown: readonly string[]) =>
    screen?.filters ??
    shown.filter((c) => {
      const field = fields.find((f) => f.name === c);
      return (workflow && c === workflow.field) || FILTERABLE_TYPES.has(field?.type ?? '') || field?.due !== undefined;
    });
  const filters = filtersOf(columns);
  const list: RoleListModel = {
    columns,
    sort: parseSort(screen?.sort ?? '-createdAt'),
    filters,
    pageSize: screen?.pageSize ?? DEFAULT_PAGE_SIZE,
    board: screen?.board ? buildBoard(screen.board, screen.sum, fields, workflow) : null,
    bulk: true,
    import: true,
  };
  // A role's list keeps what it does not choose.
  const roles = Object.fromEntries(
    Object.entries(screen?.roles ?? {}).map(([role, own]): [string, RoleListModel] => [
      role,
      {
        ...list,
        columns: own.columns ?? list.columns,
        sort: own.sort ? parseSort(own.sort) : list.sort,
        filters: own.filters ?? filtersOf(own.columns ?? columns),
        bulk: own.bulk ?? true,
        import: own.import ?? true,
      },
    ]),
  );
  return { ...list, roles };
}

/** The board's columns in the declared order, and its sum: the spec's, else the first money field. */
function buildBoard(field: string, sum: string | undefined, fields: readonly FieldModel[], workflow: WorkflowModel | null): BoardModel {
  const values =
    workflow && field === workflow.field ? workflow.states.map((s) => s.name) : (fields.find((f) => f.name === field)?.enumValues ?? []);
  return { field, values, sum: sum ?? fields.find((f) => f.type === 'money')?.name ?? null };
}

export function parseSort(sort: string): SortModel {
  return sort.startsWith('-') ? { field: sort.slice(1), direction: 'desc' } : { field: sort, direction: 'asc' };
}

/** A file field's limits, constants resolved and the engine's defaults filled. */
function buildFileLimits(field: FileField | FilesField, constants: AppSpec['constants'] = {}): FileLimits {
  const value = (given: number | ConstantRef | undefined, fallback: number): number =>
    given === undefined
      ? fallback
      : typeof given === 'number'
        ? given
        : (declaredValue(constants, given.$constant, 'constant').value as number);
  return {
    maxItems: field.type === 'file' ? 1 : value(field.maxItems, DEFAULT_MAX_FILES),
    maxBytes: value(field.maxBytes, DEFAULT_MAX_FILE_BYTES),
    accept: field.accept ?? null,
  };
}

/** A set's cap (references, users): its number, or its constant's value; the engine's own cap when none is set. */
function referencesCap(maxItems: number | ConstantRef | undefined, constants: AppSpec['constants'] = {}): number {
  if (maxItems === undefined) return MAX_REFERENCES;
  return typeof maxItems === 'number' ? maxItems : (declaredValue(constants, maxItems.$constant, 'constant').value as number);
}
