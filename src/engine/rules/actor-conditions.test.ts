import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { visitorActor } from '../access/visitor';
import type { Actor } from '../ground/actor';
import { buildModel } from '../spec/build';
import type { Condition } from '../spec/types';
import { actorContext, evaluateCondition } from '../condition/evaluate';
import { conditionPaths, readsActor } from './condition-paths';
import { conditionToSql } from '../condition/bound-sql';
import { readScopeColumns } from '../live/scope-columns';
import { seeAllTarget } from '../spec/screens/home';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket!;
const now = new Date('2030-06-15T12:00:00Z');
const alice: Actor = { userId: 7, email: 'alice@example.com', name: 'Alice', roles: ['customer'], fields: { organization: 3 } };
const loner: Actor = { userId: 8, email: 'loner@example.com', name: 'Loner', roles: ['customer'], fields: { organization: null } };

const OWN: Condition = { field: 'requester', op: 'eq', value: { actor: 'id' } };
const SAME_ORGANIZATION: Condition = { field: 'requester.organization', op: 'eq', value: { actor: 'organization' } };
const evaluate = (condition: Condition, record: Record<string, unknown>, actor: Actor) =>
  evaluateCondition(model, condition, record, now, actorContext(actor));

/** Compiles without a database: the SQL text and its parameters. */
const db = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const compile = (condition: Condition, actor: Actor) => sql`${conditionToSql(model, ticket, condition, actor)}`.compile(db);

describe('conditions on the user and their fields, in memory', () => {
  it("reads the user's id and fields", () => {
    expect(evaluate(OWN, { requester: 7 }, alice)).toBe(true);
    expect(evaluate(OWN, { requester: 9 }, alice)).toBe(false);
    expect(evaluate({ field: 'organization', op: 'eq', value: { actor: 'organization' } }, { organization: 3 }, alice)).toBe(true);
    expect(evaluate({ field: 'organization', op: 'eq', value: { actor: true } }, { organization: 7 }, alice)).toBe(true);
  });

  it('a user without the value, or a visitor, matches nothing with eq, and everything set with ne', () => {
    const own = { field: 'organization', op: 'eq', value: { actor: 'organization' } } as const;
    expect(evaluate(own, { organization: null }, loner)).toBe(false);
    expect(evaluate(own, { organization: 3 }, loner)).toBe(false);
    expect(evaluate(OWN, { requester: 0 }, visitorActor())).toBe(false);
    expect(evaluate({ field: 'assignee', op: 'ne', value: { actor: 'id' } }, { assignee: 4 }, visitorActor())).toBe(true);
    expect(evaluate({ field: 'assignee', op: 'ne', value: { actor: 'id' } }, { assignee: null }, visitorActor())).toBe(false);
  });

  it('a path holds only when its reference is set, its value loaded under the path', () => {
    expect(evaluate(SAME_ORGANIZATION, { requester: 5, 'requester.organization': 3 }, alice)).toBe(true);
    expect(evaluate(SAME_ORGANIZATION, { requester: 5, 'requester.organization': 4 }, alice)).toBe(false);
    expect(evaluate({ field: 'requester.organization', op: 'absent' }, { requester: null }, alice)).toBe(false);
    expect(evaluate({ not: { field: 'requester.organization', op: 'absent' } }, { requester: null }, alice)).toBe(true);
    expect(evaluate({ field: 'requester.organization', op: 'absent' }, { requester: 5, 'requester.organization': null }, alice)).toBe(true);
  });

  it('lists the paths and tells conditions reading the user', () => {
    expect(conditionPaths([{ any: [OWN, SAME_ORGANIZATION] }, undefined, SAME_ORGANIZATION])).toEqual(['requester.organization']);
    expect(readsActor({ not: OWN })).toBe(true);
    expect(readsActor({ field: 'priority', op: 'eq', value: 'low' })).toBe(false);
  });
});

describe('conditions on the user and their fields, in SQL', () => {
  it('binds the user id and field values as parameters', () => {
    expect(compile(OWN, alice)).toMatchObject({ sql: '"requester" = $1', parameters: [7] });
    expect(compile({ field: 'organization', op: 'eq', value: { actor: 'organization' } }, alice)).toMatchObject({
      sql: '"organization" = $1',
      parameters: [3],
    });
  });

  it('a missing value matches nothing (eq false, ne "is set"), for a visitor too', () => {
    expect(compile({ field: 'organization', op: 'eq', value: { actor: 'organization' } }, loner).sql).toBe('false');
    expect(compile({ field: 'organization', op: 'ne', value: { actor: 'organization' } }, loner).sql).toBe('"organization" is not null');
    expect(compile(OWN, visitorActor()).sql).toBe('false');
  });

  it('a path through a user field is a subquery on the accounts, true only when the reference is set', () => {
    expect(compile(SAME_ORGANIZATION, alice)).toMatchObject({
      sql: '("requester" is not null and "requester" in (select "nf_user"."id" from "nf_user" where "nf_user"."f_organization" = $1))',
      parameters: [3],
    });
  });

  it('a path through a reference is a subquery on the referenced entity', () => {
    const comment = model.entitiesByName.comment!;
    const compiled = sql`${conditionToSql(model, comment, { field: 'ticket.requester', op: 'eq', value: { actor: 'id' } }, alice)}`.compile(
      db,
    );
    expect(compiled).toMatchObject({
      sql: '("ticket" is not null and "ticket" in (select "ticket"."id" from "ticket" where "requester" = $1))',
      parameters: [7],
    });
  });
});

describe('where else conditions on the user and paths show', () => {
  it("keeps a deleted ticket's requester (the head of requester.organization) for live pages to judge it on", () => {
    expect(readScopeColumns(ticket)).toContain('requester');
  });

  it('links "see all" to the list filtered by the viewer, never by one of their fields (the list cannot filter by it)', () => {
    const widget = { kind: 'list', entity: 'ticket', title: 'Mine', sort: '-updatedAt', columns: ['subject'], limit: 5 } as const;
    expect(seeAllTarget(model, { ...widget, where: { field: 'assignee', op: 'eq', value: { actor: 'id' } } })).toEqual({
      kind: 'list',
      filters: { assignee: { actor: true } },
    });
    expect(seeAllTarget(model, { ...widget, where: { field: 'organization', op: 'eq', value: { actor: 'organization' } } })).toBeNull();
  });
});
