import { at, describeValue, isRecord, type Issues, type Rec } from './context';

/*
 * `writtenBy: 'calls'` on an entity or a field: written only by the spec's calls (point 7) and
 * workflow effects. Checked here: the value, and the specs that could never work, since nothing
 * else would say so before a user met a form or an API that refuses everything.
 */

const WRITTEN_BY = ['calls'];

export function checkWrittenBy(spec: Rec, issues: Issues): void {
  const entities = isRecord(spec.entities) ? spec.entities : {};
  const hasCalls = isRecord(spec.calls) && Object.keys(spec.calls).length > 0;
  for (const [name, entity] of Object.entries(entities)) {
    if (!isRecord(entity)) continue;
    const path = at('entities', name);
    const entityCallsOnly = checkValue(entity, path, issues);
    if (entityCallsOnly && !hasCalls) {
      issues.add(
        at(path, 'writtenBy'),
        'the spec has no calls, so nothing could ever create one (workflows change existing records only): declare the calls that write it',
      );
    }
    for (const [fieldName, field] of Object.entries(isRecord(entity.fields) ? entity.fields : {})) {
      if (!isRecord(field)) continue;
      const fieldPath = at(at(path, 'fields'), fieldName);
      if (!checkValue(field, fieldPath, issues)) continue;
      if (field.readOnly === true || field.due !== undefined) {
        issues.add(
          at(fieldPath, 'writtenBy'),
          `a ${field.readOnly === true ? 'read-only' : 'computed due'} field is written by no call either: keep one of the two`,
        );
      } else if (!hasCalls && !entityCallsOnly) {
        issues.add(
          at(fieldPath, 'writtenBy'),
          'the spec has no calls, so only workflow effects and the default could ever write it: declare the calls that write it, or make it readOnly',
        );
      } else if (field.required === true && field.default === undefined && !entityCallsOnly) {
        // Forms, imports and the API create records of this entity, and none of them may fill it.
        issues.add(
          at(fieldPath, 'writtenBy'),
          'a required field only calls write needs a default: forms, imports and the API create records without it',
        );
      }
    }
  }
  checkGrants(spec, entities, issues);
  checkCallFields(spec, issues);
}

/** True when the spec (an entity or a field) says `writtenBy: 'calls'`; an issue for any other value. */
function checkValue(spec: Rec, path: string, issues: Issues): boolean {
  if (spec.writtenBy === undefined) return false;
  if (WRITTEN_BY.includes(spec.writtenBy as string)) return true;
  issues.add(
    at(path, 'writtenBy'),
    `must be ${WRITTEN_BY.map((v) => JSON.stringify(v)).join(' or ')}, got ${describeValue(spec.writtenBy)}`,
  );
  return false;
}

/** A role's writableFields naming a field only calls write: no door the grant opens could write it. */
function checkGrants(spec: Rec, entities: Rec, issues: Issues): void {
  if (!isRecord(spec.permissions)) return;
  for (const [entityName, byRole] of Object.entries(spec.permissions)) {
    const entity = entities[entityName];
    const fields = isRecord(entity) && isRecord(entity.fields) ? entity.fields : {};
    if (!isRecord(byRole)) continue;
    for (const [role, grant] of Object.entries(byRole)) {
      if (!isRecord(grant) || !Array.isArray(grant.writableFields)) continue;
      const path = at(at(at('permissions', entityName), role), 'writableFields');
      for (const name of grant.writableFields) {
        const field = typeof name === 'string' && Object.hasOwn(fields, name) ? fields[name] : undefined;
        if (isRecord(field) && field.writtenBy === 'calls') {
          issues.add(
            path,
            `"${name}" is written only by calls: no form, import or API request of this role could write it (calls write it whenever the role may create or change the record)`,
          );
        }
      }
    }
  }
}

/** `writtenBy` says who writes a record's field; a call's input and output are no records. */
function checkCallFields(spec: Rec, issues: Issues): void {
  if (!isRecord(spec.calls)) return;
  for (const [name, call] of Object.entries(spec.calls)) {
    if (!isRecord(call)) continue;
    for (const part of ['input', 'output'] as const) {
      const fields = call[part];
      if (!isRecord(fields)) continue;
      for (const [fieldName, field] of Object.entries(fields)) {
        if (isRecord(field) && field.writtenBy !== undefined) {
          issues.add(
            at(at(at(at('calls', name), part), fieldName), 'writtenBy'),
            "is for the fields of entities: a call's input and output are not stored",
          );
        }
      }
    }
  }
}
