import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** Tickets with comments (by their ticket, and by a ticket they quote), and a board of tickets. */
function spec(ticketFields: Record<string, unknown>, extra: Record<string, unknown> = {}): AppSpec {
  return {
    name: 'derived',
    entities: {
      board: { titleField: 'name', fields: { name: { type: 'text' } } },
      ticket: {
        titleField: 'title',
        fields: { title: { type: 'text' }, board: { type: 'reference', to: 'board' }, points: { type: 'integer' }, ...ticketFields },
      },
      comment: {
        titleField: 'body',
        fields: {
          body: { type: 'text' },
          ticket: { type: 'reference', to: 'ticket' },
          quotes: { type: 'reference', to: 'ticket' },
          internal: { type: 'boolean' },
          sentAt: { type: 'datetime' },
        },
      },
    },
    ...extra,
  } as unknown as AppSpec;
}

const messages = (s: AppSpec) => validateSpec(s).map((i) => `${i.path}: ${i.message}`);

describe('derived fields at load', () => {
  it('accepts a count through the reference `via` names, and builds it with its defaults', () => {
    const s = spec({
      replyCount: { type: 'integer', derived: { count: 'comment', via: 'ticket', where: { field: 'internal', op: 'eq', value: false } } },
    });
    expect(messages(s)).toEqual([]);
    const field = buildModel(s).entitiesByName.ticket!.fieldsByName.replyCount!;
    expect(field.readOnly).toBe(true);
    expect(field.derived).toEqual({
      kind: 'count',
      entity: 'comment',
      via: 'ticket',
      field: null,
      where: { field: 'internal', op: 'eq', value: false },
      relatedLabel: 'Comment',
      relatedPluralLabel: 'Comments',
    });
  });

  it('infers the only reference, and refuses several without `via`, or none', () => {
    const board = spec({});
    const withCount = {
      ...board,
      entities: {
        ...board.entities,
        board: { titleField: 'name', fields: { name: { type: 'text' }, tickets: { type: 'integer', derived: { count: 'ticket' } } } },
      },
    } as AppSpec;
    expect(buildModel(withCount).entitiesByName.board!.fieldsByName.tickets!.derived?.via).toBe('board');
    expect(messages(spec({ replyCount: { type: 'integer', derived: { count: 'comment' } } }))).toEqual([
      'entities.ticket.fields.replyCount.derived: comment refers to ticket through several fields (ticket, quotes): name one with "via"',
    ]);
    expect(messages(spec({ replyCount: { type: 'integer', derived: { count: 'board' } } }))).toEqual([
      'entities.ticket.fields.replyCount.derived: board has no reference field to ticket: nothing of it can relate to ticket',
    ]);
    expect(messages(spec({ replyCount: { type: 'integer', derived: { count: 'comment', via: 'body' } } }))[0]).toContain(
      '"body" is not a reference of comment to ticket (its references to ticket: ticket, quotes)',
    );
  });

  it('refuses a declared type that is not what the fold gives', () => {
    expect(messages(spec({ replies: { type: 'decimal', derived: { count: 'comment', via: 'ticket' } } }))).toEqual([
      'entities.ticket.fields.replies.derived: a count is an integer: declare the field as type "integer", not "decimal"',
    ]);
    expect(messages(spec({ any: { type: 'integer', derived: { exists: 'comment', via: 'ticket' } } }))[0]).toContain(
      'declare the field as type "boolean"',
    );
    expect(messages(spec({ last: { type: 'date', derived: { max: 'comment.sentAt', via: 'ticket' } } }))).toEqual([
      'entities.ticket.fields.last.derived: the max of "comment.sentAt" is a datetime: declare the field as type "datetime", not "date"',
    ]);
    expect(messages(spec({ total: { type: 'integer', derived: { sum: 'comment.internal', via: 'ticket' } } }))).toEqual([
      'entities.ticket.fields.total.derived.sum: sum applies to integer, decimal, money fields, and "comment.internal" is a boolean field',
    ]);
  });

  it('refuses a where with the user, the time or a path, and a value someone would give', () => {
    const where = (w: unknown) => spec({ n: { type: 'integer', derived: { count: 'comment', via: 'ticket', where: w } } });
    expect(messages(where({ field: 'sentAt', op: 'lt', value: { now: true } }))[0]).toContain(
      "a derived field's where compares with literal values and constants only, got { now }",
    );
    expect(messages(where({ field: 'ticket', op: 'eq', value: { actor: 'id' } })).join()).toContain(
      'the signed-in user) cannot be used here',
    );
    expect(messages(where({ exists: 'comment' })).join()).toContain('"exists" asks the database about other records');
    expect(messages(spec({ n: { type: 'integer', default: 3, derived: { count: 'comment', via: 'ticket' } } }))).toEqual([
      'entities.ticket.fields.n.default: a derived field is kept by the engine from the related records: it takes no "default"',
    ]);
  });

  it('is not set by a workflow effect', () => {
    const s = spec(
      { replies: { type: 'integer', derived: { count: 'comment', via: 'ticket' } } },
      {
        workflows: {
          ticket: {
            states: { open: {}, done: {} },
            transitions: { finish: { from: 'open', to: 'done', allow: ['admin'], effects: [{ set: 'replies', to: 0 }] } },
          },
        },
      },
    );
    expect(messages(s)).toContain(
      'workflows.ticket.transitions.finish.effects[0].set: "replies" is derived from related records: no effect may set it',
    );
  });

  it('is a key of entity fields only', () => {
    const s = spec({}, { users: { fields: { n: { type: 'integer', derived: { count: 'comment' } } } } });
    expect(messages(s).join()).toContain('users.fields.n.derived: unknown key');
  });
});

describe('exists conditions at load', () => {
  const scoped = (where: unknown, place: 'scope' | 'rule' = 'scope') =>
    spec(
      {},
      place === 'scope'
        ? { roles: { agent: {} }, permissions: { ticket: { agent: { list: { where }, read: { where } } } } }
        : { rules: { ticket: { r: { assert: where, message: 'No.' } } } },
    );

  it('accepts one in a scope, with actor operands and paths in its where', () => {
    expect(messages(scoped({ exists: 'comment', via: 'ticket', where: { field: 'internal', op: 'eq', value: true } }))).toEqual([]);
  });

  it('refuses an unknown entity, a missing via among several, and one in a rule', () => {
    expect(messages(scoped({ exists: 'nope' }))[0]).toContain('unknown entity "nope"');
    expect(messages(scoped({ exists: 'comment' }))[0]).toContain('comment refers to ticket through several fields');
    expect(messages(scoped({ exists: 'comment', via: 'ticket', where: { field: 'nope', op: 'present' } }))[0]).toContain(
      'unknown field "nope" of comment',
    );
    expect(messages(scoped({ exists: 'comment', via: 'ticket' }, 'rule'))[0]).toContain(
      'rules.ticket.r.assert.exists: "exists" asks the database about other records',
    );
  });
});
