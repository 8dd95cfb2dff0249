import { DERIVED_KINDS, type DerivedKind } from '../derived';
import { withArticle } from '../naming';
import { checkCondition } from './conditions';
import { at, describeValue, isRecord, isString, quoteList, type EntityInfo, type Issues, type Rec, type Symbols } from './context';
import { checkReverseReference } from './reverse-reference';
import { currencyOf } from './money';
import { checkLiteralCondition, type LiteralPurpose } from './unique-when';

const DERIVED_KEYS = [...DERIVED_KINDS, 'via', 'where'];
/** Field types a sum adds up, and that min and max compare. */
const SUMMABLE = ['integer', 'decimal', 'money'];
const ORDERED = ['integer', 'decimal', 'money', 'date', 'datetime'];
/** The field keys that mean someone gives the value, which a derived field never takes. */
const GIVEN_KEYS = ['default', 'required', 'unique', 'searchable', 'writtenBy', 'due'];

const DERIVED_PURPOSE: LiteralPurpose = {
  what: "a derived field's where",
  why: 'the database keeps the value in the same transaction as every write of the related records',
};

/**
 * The `derived` of every field of an entity: one of count / exists (a related entity) or sum /
 * min / max (`entity.field`), the reference through which it points here, a `where` on the
 * related record that the database can keep (its fields with literals and constants), and a
 * declared type that fits what the fold gives.
 */
export function checkDerivedFields(entity: Rec, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  if (!isRecord(entity.fields)) return;
  for (const [name, field] of Object.entries(entity.fields)) {
    if (!isRecord(field) || field.derived === undefined) continue;
    const fieldPath = at(at(path, 'fields'), name);
    checkDerived(field, info, at(fieldPath, 'derived'), symbols, issues);
    for (const key of GIVEN_KEYS)
      if (field[key] !== undefined && field[key] !== false)
        issues.add(at(fieldPath, key), `a derived field is kept by the engine from the related records: it takes no "${key}"`);
  }
}

function checkDerived(field: Rec, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  const derived = field.derived;
  if (!issues.record(derived, path, 'a derived value')) return;
  issues.unknownKeys(derived, DERIVED_KEYS, path, 'a derived value');
  const kinds = DERIVED_KINDS.filter((k) => derived[k] !== undefined);
  const kind = kinds[0];
  if (kind === undefined || kinds.length > 1) {
    issues.add(
      path,
      `a derived value needs exactly one of ${DERIVED_KINDS.join(', ')} (got ${kinds.length === 0 ? 'none' : kinds.join(', ')})`,
    );
    return;
  }
  const target = derived[kind];
  const needsField = kind === 'sum' || kind === 'min' || kind === 'max';
  if (!isString(target)) {
    issues.add(
      at(path, kind),
      `must name ${needsField ? 'a field of a related entity ("deal.amount")' : 'a related entity'}, got ${describeValue(target)}`,
    );
    return;
  }
  const [entityName = '', fieldName, ...rest] = target.split('.');
  const related = symbols.entities.get(entityName);
  if (!related) {
    issues.add(at(path, kind), `unknown entity "${entityName}" (entities: ${quoteList(symbols.entities.keys())})`);
    return;
  }
  if (needsField !== (fieldName !== undefined) || rest.length > 0) {
    issues.add(at(path, kind), needsField ? `names a field: "${entityName}.<field>"` : `names an entity ("${entityName}"), not a field`);
    return;
  }
  checkReverseReference(info.name, related, derived.via, path, issues);
  const folded = fieldName === undefined ? undefined : related.fields.get(fieldName);
  checkType(field.type, kind, folded, target, path, issues);
  checkCurrency(field, folded, target, path, symbols, issues);
  if (derived.where !== undefined) {
    checkCondition(derived.where, at(path, 'where'), related, symbols, issues, { paths: false });
    checkLiteralCondition(derived.where, at(path, 'where'), related, issues, DERIVED_PURPOSE);
  }
}

/** The sum, min or max of amounts in one currency is an amount in that currency, not in another. */
function checkCurrency(field: Rec, folded: Rec | undefined, target: string, path: string, symbols: Symbols, issues: Issues): void {
  const declared = currencyOf(field, symbols);
  const source = currencyOf(folded, symbols);
  if (field.type === 'money' && declared !== null && source !== null && declared !== source) {
    issues.add(path, `"${target}" is money in ${source}: declare the field's currency as "${source}", not "${declared}"`);
  }
}

/** The declared type must be what the fold gives: count an integer, exists a boolean, sum/min/max the folded field's. */
function checkType(type: unknown, kind: DerivedKind, folded: Rec | undefined, target: string, path: string, issues: Issues): void {
  const declared = String(type);
  if (kind === 'count' || kind === 'exists') {
    const expected = kind === 'count' ? 'integer' : 'boolean';
    if (declared !== expected)
      issues.add(path, `a ${kind} is ${withArticle(expected)}: declare the field as type "${expected}", not "${declared}"`);
    return;
  }
  if (!folded) {
    issues.add(at(path, kind), `unknown field "${target}"`);
    return;
  }
  const foldedType = String(folded.type);
  const allowed = kind === 'sum' ? SUMMABLE : ORDERED;
  if (!allowed.includes(foldedType)) {
    issues.add(at(path, kind), `${kind} applies to ${allowed.join(', ')} fields, and "${target}" is ${withArticle(foldedType)} field`);
    return;
  }
  if (folded.derived !== undefined) {
    issues.add(at(path, kind), `"${target}" is itself derived: fold a stored field (the engine keeps one step)`);
    return;
  }
  if (declared !== foldedType)
    issues.add(
      path,
      `the ${kind} of "${target}" is ${withArticle(foldedType)}: declare the field as type "${foldedType}", not "${declared}"`,
    );
}
