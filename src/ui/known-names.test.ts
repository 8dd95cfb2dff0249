import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import { buildModel } from '@/engine/spec/build';
import { knownEntity, knownFields } from './known-names';

const model = buildModel(helpdesk);

describe('lookups by a name the model holds', () => {
  it('finds an entity and its fields, in the order named', () => {
    const ticket = knownEntity(model, 'ticket');
    expect(ticket.name).toBe('ticket');
    expect(knownFields(ticket, ['priority', 'subject']).map((field) => field.name)).toEqual(['priority', 'subject']);
  });

  it('says which name is missing, and never answers from the prototype', () => {
    expect(() => knownEntity(model, 'nothing')).toThrow('The model has no entity "nothing".');
    expect(() => knownEntity(model, 'toString')).toThrow('The model has no entity "toString".');
    expect(() => knownFields(knownEntity(model, 'ticket'), ['subject', 'nothing'])).toThrow('The entity ticket has no field "nothing".');
  });
});
