import { compareValues } from './compare';
import type { CompiledLeaf } from './types';

/*
 * A leaf on a set (a users field: an event's organizers) reads "includes": `eq` holds when the
 * set holds the value (`{ actor: 'id' }`: the user is one of them), `ne` when it does not,
 * `present` when the set has a member and `absent` when it is empty. Other operators are refused
 * at load (spec/validate/conditions.ts). As in SQL (an EXISTS on the join table, bound-sql.ts)
 * the answer is never unknown. A user without the value (a visitor) is in no set: `eq` does not
 * hold, and `ne` holds where the set has members, as with a single user field.
 */

/** The ids a set's value holds (an array of ids as ops read it; empty when it has none). */
export function setMembers(value: unknown): readonly unknown[] | null {
  return Array.isArray(value) ? (value as readonly unknown[]) : null;
}

/** Whether the leaf holds on a set with these members, `expected` being the operand's value. */
export function setLeafHolds(leaf: CompiledLeaf, members: readonly unknown[], expected: unknown): boolean {
  switch (leaf.kind) {
    case 'present':
      return members.length > 0;
    case 'absent':
      return members.length === 0;
    case 'compare': {
      if (expected === null || expected === undefined) return leaf.op === 'ne' && members.length > 0;
      const includes = members.some((m) => compareValues(m, expected) === 0);
      if (leaf.op === 'eq') return includes;
      if (leaf.op === 'ne') return !includes;
      return false;
    }
    case 'in':
    case 'notIn':
      return false;
  }
}
