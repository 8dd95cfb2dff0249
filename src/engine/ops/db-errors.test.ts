import { describe, expect, it } from 'vitest';
import { NinefoldError } from '../errors/ninefold-error';
import { translateDatabaseError } from './db-errors';
import { testModel } from '@testing/engine/ops';

const ticket = testModel.entitiesByName.ticket!;
const organization = testModel.entitiesByName.organization;

function translated(entity = ticket, fields: Record<string, string>): NinefoldError {
  const result = translateDatabaseError(testModel, entity!, Object.assign(new Error('database error'), fields));
  expect(result).toBeInstanceOf(NinefoldError);
  return result as NinefoldError;
}

describe('translateDatabaseError', () => {
  it('maps a unique violation to a field error on the colliding field', () => {
    const error = translated(organization, { code: '23505', detail: 'Key (name)=(Acme) already exists.' });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fieldErrors).toEqual([{ field: 'name', code: 'unique', message: 'This name is already used.' }]);
  });

  it('maps a restricted delete (23001) and a referenced delete (23503) to CONFLICT', () => {
    for (const code of ['23001', '23503']) {
      const error = translated(organization, { code, detail: 'Key (id)=(3) is referenced from table "contact".' });
      expect(error.code).toBe('CONFLICT');
      expect(error.status).toBe(409);
    }
  });

  it('maps a write referring to a record deleted meanwhile to a field error', () => {
    const error = translated(ticket, { code: '23503', detail: 'Key (organization)=(7) is not present in table "organization".' });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fieldErrors).toEqual([expect.objectContaining({ field: 'organization', code: 'unknown_reference' })]);
  });

  it('leaves every other error as it is (an internal error)', () => {
    const original = Object.assign(new Error('syntax'), { code: '42601' });
    expect(translateDatabaseError(testModel, ticket, original)).toBe(original);
    expect(translateDatabaseError(testModel, ticket, undefined)).toBeUndefined();
  });
});
