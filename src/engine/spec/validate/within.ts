import { at, describeValue, isRecord, isString, quoteList, type EntityInfo, type Issues, type Symbols } from './context';

/**
 * A reference's `within: 'company'`: the chosen record's own `company` must be this record's
 * `company`. So both this entity and the one referred to need a reference field of that name,
 * and both must refer to the same entity (else the two ids could never be compared).
 */
export function checkWithin(field: unknown, path: string, info: EntityInfo, symbols: Symbols, issues: Issues): void {
  if (!isRecord(field) || field.type !== 'reference' || field.within === undefined) return;
  const within = field.within;
  const where = at(path, 'within');
  const references = (fields: ReadonlyMap<string, unknown>) =>
    [...fields].filter(([, f]) => isRecord(f) && f.type === 'reference').map(([name]) => name);
  if (!isString(within)) {
    issues.add(where, `must be the name of a reference field of ${info.name}, got ${describeValue(within)}`);
    return;
  }
  const own = info.fields.get(within);
  const name = path.split('.').at(-1);
  if (within === name) {
    issues.add(where, 'names the field itself; name another reference field of the record, e.g. its company');
    return;
  }
  if (!isRecord(own) || own.type !== 'reference') {
    issues.add(where, `"${within}" is not a reference field of ${info.name} (reference fields: ${quoteList(references(info.fields))})`);
    return;
  }
  const target = isString(field.to) ? symbols.entities.get(field.to) : undefined;
  if (!target) return; // an unknown `to` is reported at `to`
  const theirs = target.fields.get(within);
  if (!isRecord(theirs) || theirs.type !== 'reference') {
    issues.add(
      where,
      `${target.name} has no reference field "${within}" to compare with ${info.name}'s (its reference fields: ${quoteList(references(target.fields))})`,
    );
    return;
  }
  if (theirs.to !== own.to) {
    issues.add(
      where,
      `${info.name}.${within} refers to ${describeValue(own.to)} but ${target.name}.${within} to ${describeValue(theirs.to)}: they cannot be compared`,
    );
  }
}
