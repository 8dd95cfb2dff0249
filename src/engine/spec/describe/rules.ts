import { calendarBlocks } from './calendar';
import { ADMIN_ROLE, policyOf, visitorsWelcome, writtenOnlyByCalls, type RolePolicy } from '../../access/policy';
import { BUILT_IN_ERRORS } from '../../errors/catalogue';
import type { DocBlock } from '../document';
import { decimalDigits, digitsOf } from '../field-numbers';
import { limitMessage } from '../limit-message';
import { isLimitMaxField } from '../limit-max';
import type { AppModel, EntityModel, FieldModel, LimitModel } from '../model';
import { indefinite, inSentence, withArticle } from '../naming';
import type { CallSpec, ErrorSpec, FieldSpec } from '../types';
import type { PointBlocks } from './product';
import { typeText } from './product';
import { uniqueWhenBlocks } from './unique-when';
import { exclusiveBlocks } from './exclusive';
import { userFieldBlocks } from './users';
import { writtenByCallsText } from './written-by';
import { amountText, code, conditionText, constantValueText, isConstantRef, NONE, scopeText } from './text';

/** Points 5 to 9: the rules the product enforces, who may do what, its calls, errors and constants. */

// ---------------------------------------------------------------- 5. validation rules

export function validationBlocks(model: AppModel): PointBlocks {
  const fieldRows = model.entities.flatMap((entity) =>
    entity.fields.flatMap((field) => {
      const rules = fieldRules(field);
      return rules.length > 0 ? [[code(`${entity.name}.${field.name}`), rules.join('; ')]] : [];
    }),
  );
  const ruleRows = model.entities.flatMap((entity) =>
    Object.entries(entity.rules).map(([name, rule]) => [
      `${entity.name}: ${name}`,
      rule.when ? conditionText(rule.when, entity) : 'always',
      conditionText(rule.assert, entity),
      rule.message,
      rule.field ?? NONE,
      code(rule.error ?? 'VALIDATION_FAILED'),
    ]),
  );
  const limitRows = model.entities.flatMap((entity) =>
    Object.entries(entity.limits).map(([name, limit]) => [
      `${entity.name}: ${name}`,
      maxText(limit),
      perText(model, entity, limit.per),
      limit.where ? conditionText(limit.where, entity) : `every ${inSentence(entity.label)}`,
      limit.exempt?.length ? limit.exempt.join(', ') : NONE,
      limitMessage(model.constants, name, limit, limit.maxField?.text),
    ]),
  );
  const uniqueWhen = uniqueWhenBlocks(model);
  const exclusive = exclusiveBlocks(model);
  if (fieldRows.length + ruleRows.length + limitRows.length + uniqueWhen.length + exclusive.length === 0) return null;
  const blocks: DocBlock[] = [];
  if (fieldRows.length > 0) {
    blocks.push({ kind: 'heading', text: 'Field rules' }, { kind: 'table', columns: ['Field', 'Rules'], rows: fieldRows });
  }
  if (ruleRows.length > 0) {
    blocks.push(
      { kind: 'heading', text: 'Record rules' },
      { kind: 'table', columns: ['Rule', 'When', 'Must hold', 'Message', 'Shown at', 'Error'], rows: ruleRows },
    );
  }
  blocks.push(...uniqueWhen);
  blocks.push(...exclusive);
  if (limitRows.length > 0) {
    blocks.push(
      { kind: 'heading', text: 'Limits' },
      { kind: 'table', columns: ['Limit', 'At most', 'Per', 'Counting', 'Exempt roles', 'Message'], rows: limitRows },
    );
  }
  return blocks;
}

/** Whose records a limit counts: "requester (a user)", "supplier (a supplier)". */
function perText(model: AppModel, entity: EntityModel, per: string): string {
  const field = entity.fieldsByName[per];
  const target = field?.referenceTo ? model.entitiesByName[field.referenceTo] : undefined;
  return `${per} (${target ? indefinite(target.label) : 'a user'})`;
}

/** "an amount of EUR, at most 2 digits after the point"; JPY: "a whole amount of JPY". */
function moneyRule(field: FieldModel): string {
  const scale = digitsOf(field).scale;
  return scale === 0 ? `a whole amount of ${field.currency}` : `an amount of ${field.currency}, at most ${scale} digits after the point`;
}

function fieldRules(field: FieldModel): string[] {
  const spec: FieldSpec = field.spec;
  const rules: string[] = [];
  if (field.required) rules.push('required');
  if (spec.type === 'text' || spec.type === 'markdown') {
    const range = rangeText(spec.minLength, spec.maxLength);
    if (range) rules.push(`${range} characters`);
  }
  if (spec.type === 'integer' || spec.type === 'decimal' || spec.type === 'money') {
    const range = rangeText(spec.min, spec.max);
    if (range) rules.push(range);
  }
  if (spec.type === 'decimal') rules.push(`at most ${decimalDigits(spec).scale} digits after the point`);
  if (spec.type === 'money') rules.push(moneyRule(field));
  if (spec.type === 'text' && spec.pattern)
    rules.push(`matches ${code(spec.pattern)}${spec.patternMessage ? ` ("${spec.patternMessage}")` : ''}`);
  if (spec.type === 'text' && spec.format === 'hostname') rules.push('a host name');
  if (spec.type === 'email') rules.push('an email address');
  if (spec.type === 'url') rules.push('a URL');
  if (spec.type === 'enum') rules.push(`one of ${spec.values.join(', ')}`);
  if (field.unique) rules.push('unique');
  return rules;
}

function rangeText(min: number | { readonly $constant: string } | undefined, max: typeof min): string | null {
  if (min !== undefined && max !== undefined) return `${amountText(min)} to ${amountText(max)}`;
  if (min !== undefined) return `at least ${amountText(min)}`;
  if (max !== undefined) return `at most ${amountText(max)}`;
  return null;
}

/** The maximum as the spec names it, with its value (resolved when the model was built). */
function maxText(limit: LimitModel): string {
  if (isLimitMaxField(limit.max) && limit.maxField) return `${limit.maxField.text} (${code(limit.max.field)}; no limit when empty)`;
  return isConstantRef(limit.max) ? `${limit.max.$constant} (${limit.maxValue})` : String(limit.max);
}

// ---------------------------------------------------------------- 6. roles and permissions

const ACTIONS = ['list', 'read', 'create', 'update', 'delete'] as const;

const PUBLIC_ROLE_TEXT =
  `${code('public')} is the built-in role of visitors who are not signed in: the lists, records and forms it is granted open without sign-in, ` +
  'in pages (with a shell of their own: the public lists and a sign-in link) and in the API (no credentials needed). ' +
  'Their requests, pages and API alike, are limited per client address. ' +
  'Everything else sends a visitor to sign in. Every signed-in user holds its grants too; what visitors create has no author, ' +
  `and they are never shown who created or changed a record (${code('createdBy')}, ${code('updatedBy')}, the history's authors).`;

/** The rules that hold across the permission tables. */
const WRITES_WITHIN_READ_TEXT =
  'Update, Delete and transitions apply only to records the user may also read (Read): any other is answered as if it did not exist. ' +
  "A write answers with the record as the user may read it afterwards; when they may not (a visitor's message), with its id, version and times only.";

const AUTHORS_TEXT =
  `Who created a record and who changed it last (${code('createdBy')}, ${code('updatedBy')}) are read like fields, and so is who made each change in its history: ` +
  'a role\'s hidden fields may name them (its history then says "Someone" did it).';

/** How hidden fields combine over roles (src/engine/access/field-sight.ts). */
const FIELDS_PER_RECORD_TEXT =
  "A role's hidden fields hold on the records that role's List and Read let the user see: a record the user sees through several roles " +
  'shows what any of them shows, one seen through a single role (the public grant included) shows what that role shows. ' +
  'Filters, sorts, searches and numbers treat a value hidden on a record as empty there.';

const TRANSITION_GRANTS_TEXT =
  "A role's Transitions grant says on which records it takes a transition whose Who column (point 4) names it, or names an owner it is; it lets no other role take one.";

export function accessBlocks(model: AppModel): PointBlocks {
  const roles = Object.entries(model.roles);
  const governed = model.entities.filter((e) => policyOf(e).declared);
  const users = userFieldBlocks(model);
  if (roles.length === 0 && governed.length === 0 && users.length === 0) return null;
  const blocks: DocBlock[] = [];
  if (roles.length > 0) {
    blocks.push({
      kind: 'table',
      columns: ['Role', 'Label', 'Description'],
      rows: roles.map(([name, role]) => [code(name), role.label ?? '', role.description ?? '']),
    });
  }
  blocks.push(...users);
  for (const entity of governed) {
    blocks.push({ kind: 'heading', text: `${entity.pluralLabel}` }, permissionTable(entity, model));
    if (writtenOnlyByCalls(entity))
      blocks.push({
        kind: 'paragraph',
        text: `${entity.pluralLabel} are written only by the spec's calls (point 7): Create, Update and Delete say who may write them through a call.`,
      });
  }
  if (governed.length > 0) {
    blocks.push({ kind: 'paragraph', text: `Whatever is not granted is refused; ${NONE} means no access.` });
    blocks.push({ kind: 'paragraph', text: WRITES_WITHIN_READ_TEXT }, { kind: 'paragraph', text: AUTHORS_TEXT });
    if (governed.some((e) => policyOf(e).hiddenFromSomeRole.size > 0)) blocks.push({ kind: 'paragraph', text: FIELDS_PER_RECORD_TEXT });
    if (governed.some((e) => [...policyOf(e).roles.values()].some((g) => g.namesTransitions)))
      blocks.push({ kind: 'paragraph', text: TRANSITION_GRANTS_TEXT });
  }
  if (visitorsWelcome(model)) blocks.push({ kind: 'paragraph', text: PUBLIC_ROLE_TEXT });
  const adminOnly = model.entities.filter((e) => !policyOf(e).declared);
  if (adminOnly.length > 0) {
    blocks.push({
      kind: 'paragraph',
      text: `No permissions are declared for ${adminOnly.map((e) => inSentence(e.pluralLabel)).join(', ')}: only the built-in ${code(ADMIN_ROLE)} role may use them.`,
    });
  }
  return blocks;
}

function permissionTable(entity: EntityModel, model: AppModel): DocBlock {
  const grants = policyOf(entity).roles;
  const withTransitions = [...grants.values()].some((grant) => grant.namesTransitions);
  const roleNames = [...Object.keys(model.roles), ...[...grants.keys()].filter((r) => !(r in model.roles))];
  const rows = roleNames.map((role) => {
    const grant = grants.get(role);
    return [
      code(role),
      ...ACTIONS.map((action) => scopeText(grant?.scopes[action], entity)),
      ...(withTransitions ? [grant ? transitionsText(grant, entity) : NONE] : []),
      grant ? fieldRulesText(grant) : NONE,
    ];
  });
  const columns = ['Role', 'List', 'Read', 'Create', 'Update', 'Delete', ...(withTransitions ? ['Transitions'] : []), 'Fields'];
  return { kind: 'table', columns, rows };
}

function transitionsText(grant: RolePolicy, entity: EntityModel): string {
  const entries = Object.entries(grant.transitions);
  return entries.length > 0 ? entries.map(([name, scope]) => `${name}: ${scopeText(scope, entity)}`).join('; ') : NONE;
}

function fieldRulesText({ rules }: RolePolicy): string {
  const parts: string[] = [];
  if (rules.hiddenFields.length) parts.push(`hidden: ${rules.hiddenFields.join(', ')}`);
  if (rules.readOnlyFields.length) parts.push(`read-only: ${rules.readOnlyFields.join(', ')}`);
  if (rules.writableFields) parts.push(`writable only: ${rules.writableFields.join(', ') || NONE}`);
  return parts.length > 0 ? parts.join('; ') : 'all';
}

// ---------------------------------------------------------------- 7. the calls

export function callBlocks(model: AppModel): PointBlocks {
  const calls = Object.entries(model.calls);
  if (calls.length === 0) return null;
  const writtenBy = writtenByCallsText(model);
  return [
    {
      kind: 'table',
      columns: ['Call', 'Method', 'Path', 'Input', 'Output', 'Roles', 'Errors'],
      rows: calls.map(([name, call]) => [
        call.summary ? `${code(name)}: ${call.summary}` : code(name),
        call.method,
        code(`/api/v1${call.path}`),
        inputText(call),
        typeof call.output === 'string' ? withArticle(call.output) : call.output ? fieldsText(call.output) : NONE,
        call.roles.join(', '),
        call.errors?.length ? call.errors.join(', ') : NONE,
      ]),
    },
    ...(writtenBy.length > 0
      ? [{ kind: 'heading', text: 'Written only by calls' } as const, { kind: 'list', items: writtenBy } as const]
      : []),
  ];
}

function inputText(call: CallSpec): string {
  const params = Object.entries(call.params ?? {}).map(([name, type]) => `${name} (${type}, in the path)`);
  const body = call.input ? fieldsText(call.input) : '';
  return [...params, ...(body ? [body] : [])].join('; ') || NONE;
}

function fieldsText(fields: Readonly<Record<string, FieldSpec>>): string {
  return Object.entries(fields)
    .map(([name, spec]) => `${name} (${typeText(spec)}${spec.required ? ', required' : ''})`)
    .join('; ');
}

// ---------------------------------------------------------------- 8. error catalogue

/**
 * The whole catalogue: the spec's own codes, then the built-in ones, which every application with
 * entities or calls answers with. Only a spec with none of those (the empty seed) leaves it unsaid.
 */
export function errorBlocks(model: AppModel): PointBlocks {
  const own = Object.entries(model.errors);
  if (own.length === 0 && model.entities.length === 0 && Object.keys(model.calls).length === 0) return null;
  const builtIn: DocBlock[] = [{ kind: 'heading', text: 'Built-in codes' }, errorTable(Object.entries(BUILT_IN_ERRORS))];
  if (own.length === 0) return [{ kind: 'paragraph', text: 'This application declares no codes of its own.' }, ...builtIn];
  return [{ kind: 'heading', text: 'Codes of this application' }, errorTable(own), ...builtIn];
}

function errorTable(errors: readonly [string, ErrorSpec][]): DocBlock {
  return {
    kind: 'table',
    columns: ['Code', 'Status', 'Title', 'Message'],
    rows: errors.map(([code_, error]) => [code(code_), String(error.status), error.title, error.message]),
  };
}

// ---------------------------------------------------------------- 9. business constants and limits

export function constantBlocks(model: AppModel): PointBlocks {
  const constants = Object.entries(model.constants);
  const calendar = calendarBlocks(model);
  if (constants.length === 0) return calendar.length > 0 ? calendar : null;
  const uses = constantUses(model.spec);
  return [
    {
      kind: 'table',
      columns: ['Name', 'Value', 'Unit', 'Description', 'Used in'],
      rows: constants.map(([name, constant]) => [
        code(name),
        constantValueText(constant.value),
        constant.unit ?? '',
        constant.description ?? '',
        uses.get(name)?.map(code).join(', ') ?? NONE,
      ]),
    },
    ...calendar,
  ];
}

/** Where each constant is referred to: constant name → dotted paths into the spec. */
function constantUses(spec: unknown): Map<string, string[]> {
  const uses = new Map<string, string[]>();
  const walk = (value: unknown, path: string): void => {
    if (typeof value !== 'object' || value === null) return;
    if (isConstantRef(value)) {
      uses.set(value.$constant, [...(uses.get(value.$constant) ?? []), path]);
      return;
    }
    if (Array.isArray(value)) value.forEach((item: unknown, index) => walk(item, `${path}[${index}]`));
    else for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key);
  };
  walk(spec, '');
  return uses;
}
