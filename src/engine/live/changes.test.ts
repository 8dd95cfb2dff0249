import { describe, expect, it } from 'vitest';
import { parseChange } from './changes';

describe('parseChange', () => {
  it('reads what the triggers send: records with ids, deletes with their last images, accounts', () => {
    expect(parseChange('{"e" : "ticket", "op" : "i", "ids" : [1, 2], "rows" : null}')).toEqual({
      kind: 'records',
      entity: 'ticket',
      op: 'insert',
      ids: [1, 2],
      gone: null,
    });
    expect(parseChange('{"e":"comment","op":"d","ids":[5],"rows":[{"id":5,"internal":true}]}')).toEqual({
      kind: 'records',
      entity: 'comment',
      op: 'delete',
      ids: [5],
      gone: [{ id: 5, internal: true }],
    });
    // Too many to name: "some changed".
    expect(parseChange('{"e":"ticket","op":"u","ids":null}')).toMatchObject({ op: 'update', ids: null });
    expect(parseChange('{"sessions":["ab","cd"]}')).toEqual({ kind: 'accounts', sessions: ['ab', 'cd'], users: [] });
    expect(parseChange('{"sessions":null}')).toEqual({ kind: 'accounts', sessions: null, users: [] });
    expect(parseChange('{"users":[7]}')).toEqual({ kind: 'accounts', sessions: [], users: [7] });
  });

  it('ignores anything else', () => {
    for (const payload of ['', 'not json', '42', 'null', '{"e":"ticket","op":"x","ids":[1]}', '{"hello":1}'])
      expect(parseChange(payload)).toBeNull();
    // Ids that are not whole numbers are not trusted as ids.
    expect(parseChange('{"e":"ticket","op":"i","ids":["1"]}')).toMatchObject({ ids: null });
  });
});
