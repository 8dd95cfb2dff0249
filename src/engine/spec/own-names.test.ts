import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from './build';
import { nameTable, ownValue } from './own-names';

/** Every name a plain object answers for without declaring it. */
const INHERITED = Object.getOwnPropertyNames(Object.prototype);

describe('names a client sends, looked up among declared names only', () => {
  it('finds nothing inherited in a name table, and what it was given', () => {
    const table = nameTable([['subject', 1]]);
    expect(table.subject).toBe(1);
    for (const name of INHERITED) {
      expect(table[name], name).toBeUndefined();
      expect(name in table, name).toBe(false);
    }
  });

  it('keeps even a name that is `__proto__` as a name', () => {
    const table = nameTable([['__proto__', 'kept']]);
    expect(Object.keys(table)).toEqual(['__proto__']);
    expect(table.__proto__).toBe('kept');
  });

  it('reads only own names of a plain object', () => {
    const labels: Record<string, string> = { low: 'Low' };
    expect(ownValue(labels, 'low')).toBe('Low');
    expect(ownValue(undefined, 'low')).toBeUndefined();
    for (const name of INHERITED) expect(ownValue(labels, name), name).toBeUndefined();
    const parsed = JSON.parse('{"__proto__": "own"}') as Record<string, string>;
    expect(ownValue(parsed, '__proto__')).toBe('own');
  });

  it("gives the model's tables of entities and fields no inherited name", () => {
    const model = buildModel(helpdesk);
    const tables = [model.entitiesByName, model.entitiesByPlural, model.users.fieldsByName, ...model.entities.map((e) => e.fieldsByName)];
    for (const table of tables) {
      for (const name of INHERITED) {
        expect(table[name], name).toBeUndefined();
        expect(name in table, name).toBe(false);
      }
    }
    expect(model.entitiesByName.ticket!.fieldsByName.subject!.name).toBe('subject');
  });
});
