import { describe, expect, it } from 'vitest';
import type { AppSpec, Condition } from '../types';
import { validateSpec } from '../validate';

/**
 * Requests of teams: users carry a team (a user field); a request has a team, an author and a
 * patient-like reference `team` through which paths go. Each check puts the condition under test
 * in one place (a scope unless told otherwise).
 */
function specWith(place: 'scope' | 'guard' | 'rule' | 'doneWhen' | 'limit', condition: Condition, users = true): AppSpec {
  return {
    name: 'requests',
    ...(users
      ? {
          users: {
            fields: {
              team: { type: 'reference', to: 'team' },
              level: { type: 'enum', values: ['junior', 'senior'] },
              mentor: { type: 'user' },
            },
          },
        }
      : {}),
    entities: {
      team: {
        titleField: 'name',
        fields: { name: { type: 'text', required: true }, kind: { type: 'enum', values: ['sales', 'ops'] }, budget: { type: 'integer' } },
      },
      request: {
        titleField: 'title',
        fields: {
          title: { type: 'text', required: true },
          team: { type: 'reference', to: 'team' },
          author: { type: 'user', default: 'actor' },
          amount: { type: 'integer' },
          dueAt: { type: 'datetime', due: { from: 'createdAt', hours: 4, ...(place === 'doneWhen' ? { doneWhen: condition } : {}) } },
        },
        ...(place === 'limit' ? { limits: { few: { max: 3, per: 'author', where: condition } } } : {}),
      },
    },
    workflows: {
      request: {
        states: { draft: { initial: true }, done: {} },
        transitions: { finish: { from: 'draft', to: 'done', allow: ['member'], ...(place === 'guard' ? { guard: condition } : {}) } },
      },
    },
    ...(place === 'rule' ? { rules: { request: { check: { message: 'No.', assert: condition } } } } : {}),
    roles: { member: {} },
    permissions: { request: { member: { list: place === 'scope' ? { where: condition } : true, read: true } } },
  };
}

const messages = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);
const SCOPE = 'permissions.request.member.list.where';

describe('{ actor } operands: the user and their fields', () => {
  it('accepts the user id against a user field, and a user field against a column of its kind', () => {
    expect(messages(specWith('scope', { field: 'author', op: 'eq', value: { actor: 'id' } }))).toEqual([]);
    expect(messages(specWith('scope', { field: 'team', op: 'eq', value: { actor: 'team' } }))).toEqual([]);
    expect(messages(specWith('scope', { field: 'author', op: 'ne', value: { actor: 'mentor' } }))).toEqual([]);
  });

  it("compares a reference user field with the id of the entity it refers to (a team's own page)", () => {
    const spec = specWith('scope', { field: 'team', op: 'present' });
    const withTeamScope: AppSpec = {
      ...spec,
      permissions: { ...spec.permissions, team: { member: { list: { where: { field: 'id', op: 'eq', value: { actor: 'team' } } } } } },
    };
    expect(messages(withTeamScope)).toEqual([]);
  });

  it('refuses an undeclared user field, naming the declared ones', () => {
    expect(messages(specWith('scope', { field: 'team', op: 'eq', value: { actor: 'squad' } }))).toEqual([
      `${SCOPE}.value.actor: must be true, "id", or a user field (team, level, mentor); got "squad"`,
    ]);
    expect(messages(specWith('scope', { field: 'team', op: 'eq', value: { actor: 'team' } }, false))).toEqual([
      `${SCOPE}.value.actor: must be true, "id" (the spec declares no user fields: users.fields); got "team"`,
    ]);
  });

  it('refuses a comparison of different kinds, with the place', () => {
    expect(messages(specWith('scope', { field: 'author', op: 'eq', value: { actor: 'team' } }))).toEqual([
      `${SCOPE}.value: { actor: "team" } is a team (the user field "team" refers to team): compare it with a reference to team or the id of a team, not "author"`,
    ]);
    expect(messages(specWith('scope', { field: 'amount', op: 'eq', value: { actor: 'level' } }))).toEqual([
      `${SCOPE}.value: { actor: "level" } is an enum value (the user field "level"): it cannot be compared with the integer field "amount"`,
    ]);
    expect(messages(specWith('scope', { field: 'team', op: 'eq', value: { actor: 'id' } }))).toEqual([
      `${SCOPE}.value: { actor: "id" } can only be compared with a user field, not a reference field`,
    ]);
  });

  it('may be used in guards and rules (four eyes), not in limits nor due times', () => {
    const fourEyes: Condition = { field: 'author', op: 'ne', value: { actor: 'id' } };
    expect(messages(specWith('guard', fourEyes))).toEqual([]);
    expect(messages(specWith('rule', fourEyes))).toEqual([]);
    expect(messages(specWith('limit', fourEyes))).toEqual([
      'entities.request.limits.few.where.value: { actor: "id" } (the signed-in user) cannot be used here',
    ]);
    expect(messages(specWith('doneWhen', fourEyes))).toEqual([
      'entities.request.fields.dueAt.due.doneWhen.value: { actor: "id" } (the signed-in user) cannot be used here',
    ]);
  });
});

describe('paths: one step through a reference or a user field', () => {
  it('accepts a field of the referenced entity, and a user field of the user a field names', () => {
    expect(messages(specWith('scope', { field: 'team.kind', op: 'eq', value: 'sales' }))).toEqual([]);
    expect(messages(specWith('scope', { field: 'team.createdBy', op: 'eq', value: { actor: 'id' } }))).toEqual([]);
    expect(messages(specWith('scope', { field: 'author.team', op: 'eq', value: { actor: 'team' } }))).toEqual([]);
    expect(messages(specWith('scope', { field: 'createdBy.level', op: 'in', value: ['senior'] }))).toEqual([]);
    expect(messages(specWith('guard', { field: 'team.budget', op: 'gt', value: 0 }))).toEqual([]);
    expect(messages(specWith('rule', { field: 'author.team', op: 'present' }))).toEqual([]);
    expect(messages(specWith('limit', { field: 'team.kind', op: 'eq', value: 'ops' }))).toEqual([]);
  });

  it("checks literals against the target's field (an enum's values)", () => {
    expect(messages(specWith('scope', { field: 'team.kind', op: 'eq', value: 'marketing' }))).toEqual([
      `${SCOPE}.value: "marketing" is not a value of team.kind (expected one of sales, ops)`,
    ]);
    expect(messages(specWith('scope', { field: 'author.level', op: 'eq', value: 'lead' }))).toEqual([
      `${SCOPE}.value: "lead" is not a value of author.level (expected one of junior, senior)`,
    ]);
  });

  it('refuses paths that do not start at a reference or user field, go further, or name nothing', () => {
    expect(messages(specWith('scope', { field: 'title.name', op: 'present' }))).toEqual([
      `${SCOPE}.field: "title" is a text field: a path starts at a reference or user field`,
    ]);
    expect(messages(specWith('scope', { field: 'team.name.x', op: 'present' }))).toEqual([
      `${SCOPE}.field: "team.name.x" is not a path: a path follows one reference or user field one step, e.g. "patient.account"`,
    ]);
    expect(messages(specWith('scope', { field: 'team.colour', op: 'present' }))).toEqual([
      `${SCOPE}.field: unknown field "colour" of team (in the path "team.colour")`,
    ]);
    expect(messages(specWith('scope', { field: 'squad.name', op: 'present' }))).toEqual([
      `${SCOPE}.field: unknown field "squad" of request (the start of the path "squad.name")`,
    ]);
    expect(messages(specWith('scope', { field: 'author.desk', op: 'present' }))).toEqual([
      `${SCOPE}.field: "desk" is not a user field (in the path "author.desk"; user fields: team, level, mentor)`,
    ]);
  });

  it('compares a path with values, constants or the user, not with another field', () => {
    expect(messages(specWith('scope', { field: 'team.budget', op: 'gt', value: { field: 'amount' } }))).toEqual([
      `${SCOPE}.value: a path ("team.budget") is compared with values, constants or the user, not with another field`,
    ]);
  });

  it("is refused in a due time's doneWhen, read from the record's own row", () => {
    expect(messages(specWith('doneWhen', { field: 'team.kind', op: 'eq', value: 'ops' }))).toEqual([
      `entities.request.fields.dueAt.due.doneWhen.field: "team.kind" follows a reference, which cannot be done here: compare the fields of request itself`,
    ]);
  });
});
