import { describe, expect, it } from 'vitest';
import { buildModel } from '@/engine/spec/build';
import { recordTitle } from './record-title';

const model = buildModel({
  name: 'titles',
  entities: {
    patient: { fields: { name: { type: 'text' } } },
    appointment: { titleField: 'patient', fields: { patient: { type: 'reference', to: 'patient' } } },
    shift: { titleField: 'nurse', fields: { nurse: { type: 'user' } } },
  },
});
const record = (fields: Record<string, unknown>) => ({ id: 7, version: 1, ...fields }) as Parameters<typeof recordTitle>[1];

describe('recordTitle', () => {
  it('names a record by its text title field', () => {
    expect(recordTitle(model.entitiesByName.patient, record({ name: 'Ada Lovelace' }))).toBe('Ada Lovelace');
    expect(recordTitle(model.entitiesByName.patient, record({ name: ' ' }))).toBe('Patient #7');
  });

  it('names a record titled by a reference or user by that one’s title, never by its bare id', () => {
    const appointment = model.entitiesByName.appointment;
    expect(recordTitle(appointment, record({ patient: 3 }), { patient: { 3: 'Ada Lovelace' } })).toBe('Ada Lovelace');
    // Not readable by the viewer (no title loaded) or not loaded at all: the record's own name.
    expect(recordTitle(appointment, record({ patient: 3 }), { patient: {} })).toBe('Appointment #7');
    expect(recordTitle(appointment, record({ patient: 3 }))).toBe('Appointment #7');
    expect(recordTitle(model.entitiesByName.shift, record({ nurse: 2 }), { nurse: { 2: 'Grace' } })).toBe('Grace');
  });
});
