import { at, describeValue, isString, quoteList, type EntityInfo, type Issues } from './context';

/**
 * The reference field through which records of `related` point at `parent` (a derived field's
 * or an `exists` condition's): `via` when given (it must be such a field), else the only one.
 * None, or several without `via`, is reported; returns the field, or null when reported.
 */
export function checkReverseReference(parent: string, related: EntityInfo, via: unknown, path: string, issues: Issues): string | null {
  const candidates = [...related.fields].filter(([, f]) => f.type === 'reference' && f.to === parent).map(([n]) => n);
  if (via !== undefined) {
    if (!isString(via) || !candidates.includes(via)) {
      issues.add(
        at(path, 'via'),
        `${describeValue(via)} is not a reference of ${related.name} to ${parent} (its references to ${parent}: ${quoteList(candidates)})`,
      );
      return null;
    }
    return via;
  }
  if (candidates.length === 1 && candidates[0] !== undefined) return candidates[0];
  if (candidates.length === 0)
    issues.add(path, `${related.name} has no reference field to ${parent}: nothing of it can relate to ${parent}`);
  else issues.add(path, `${related.name} refers to ${parent} through several fields (${quoteList(candidates)}): name one with "via"`);
  return null;
}
