import { at, describeValue, isRecord, isString, quoteList, type EntityInfo, type Issues, type Rec, type Symbols } from './context';

/**
 * A limit's `max: { field: '<per>.<field>' }`: the maximum is held by the record the limit counts
 * for (an event's capacity), so the path starts with the limit's own `per`, a reference, and ends
 * at an integer field of the entity it refers to.
 */
export function checkLimitMaxField(max: Rec, per: unknown, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  issues.unknownKeys(max, ['field'], path, 'a maximum read from a field');
  const fieldPath = at(path, 'field');
  const value = max.field;
  const parts = isString(value) ? value.split('.') : [];
  const [reference, name] = parts;
  if (parts.length !== 2 || reference === undefined || name === undefined) {
    issues.add(fieldPath, `must be "<per>.<field>", a field of the record the limit counts for, got ${describeValue(value)}`);
    return;
  }
  if (reference !== per) {
    issues.add(
      fieldPath,
      `"${value}" must start with the limit's per (${describeValue(per)}): the maximum is a field of the record counted for`,
    );
    return;
  }
  const target = info.fields.get(reference);
  if (target?.type !== 'reference' || !isString(target.to)) {
    issues.add(fieldPath, `"${reference}" is not a reference field of ${info.name}: only a referenced record's field can hold a maximum`);
    return;
  }
  const entity = symbols.entities.get(target.to);
  if (!entity) return; // The reference's own check reports an unknown entity.
  const field = entity.fields.get(name);
  if (!field) issues.add(fieldPath, `unknown field "${name}" of ${entity.name} (fields: ${quoteList(entity.fields.keys())})`);
  else if (field.type !== 'integer')
    issues.add(fieldPath, `"${name}" of ${entity.name} is a ${String(field.type)} field: a maximum is an integer field`);
}

/** Whether a limit's `max` is written as a field (`{ field }`) rather than a number or a constant. */
export function isMaxFieldSpec(max: unknown): max is Rec {
  return isRecord(max) && 'field' in max;
}
