import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';
import events from '../../seed/fixtures/events.spec';

/** Events with a set of organizers (a users field); each case changes one thing and expects one issue at its place. */
function spec(organizers: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): AppSpec {
  return {
    name: 'events',
    roles: { organizer: {} },
    entities: {
      event: {
        titleField: 'name',
        fields: { name: { type: 'text', required: true }, organizers: { type: 'users', roles: ['organizer'], ...organizers } },
      },
    },
    ...extra,
  } as unknown as AppSpec;
}

const scope = (list: unknown) => spec({}, { permissions: { event: { organizer: { list } } } });

function issuesOf(value: AppSpec): string[] {
  return validateSpec(value).map((i) => `${i.path}: ${i.message}`);
}

describe('users fields (sets of users) in the spec', () => {
  it('a valid one loads, with its join table and its holders', () => {
    expect(issuesOf(spec())).toEqual([]);
    const field = buildModel(spec({ maxItems: 4 })).entitiesByName.event!.fieldsByName.organizers!;
    expect(field).toMatchObject({ joinTable: 'event__organizers', holderRoles: ['organizer'], maxItems: 4 });
    expect(field.referenceTo).toBeUndefined();
  });

  it('takes a scope and a condition that ask whether the set includes the user', () => {
    expect(issuesOf(scope({ own: 'organizers' }))).toEqual([]);
    expect(issuesOf(scope({ where: { field: 'organizers', op: 'ne', value: { actor: 'id' } } }))).toEqual([]);
    expect(issuesOf(scope({ where: { field: 'organizers', op: 'absent' } }))).toEqual([]);
  });

  it.each([
    ['an unknown role', spec({ roles: ['host'] }), 'entities.event.fields.organizers.roles[0]: unknown role "host"'],
    ['maxItems zero', spec({ maxItems: 0 }), 'entities.event.fields.organizers.maxItems: must be an integer from 1 to 1000, got 0'],
    ['unique', spec({ unique: true }), 'entities.event.fields.organizers.unique: a users field cannot be unique'],
    ['a default', spec({ default: 'actor' }), 'entities.event.fields.organizers.default: unknown key in a users field'],
    [
      'an operator other than eq, ne, present, absent',
      scope({ where: { field: 'organizers', op: 'in', value: [1] } }),
      'permissions.event.organizer.list.where.op: "organizers" holds many users: a condition asks whether it includes the user',
    ],
    [
      'a literal',
      scope({ where: { field: 'organizers', op: 'eq', value: 3 } }),
      'permissions.event.organizer.list.where.value: "organizers" holds many users',
    ],
    [
      'a set as the other field',
      spec(
        {},
        {
          entities: { event: { fields: { name: { type: 'text' }, owner: { type: 'user' }, organizers: { type: 'users' } } } },
          permissions: { event: { admin: { list: { where: { field: 'owner', op: 'eq', value: { field: 'organizers' } } } } } },
        },
      ),
      'permissions.event.admin.list.where.value.field: "organizers" holds many values',
    ],
    [
      'a path through it',
      scope({ where: { field: 'organizers.team', op: 'present' } }),
      'permissions.event.organizer.list.where.field: "organizers" is a users field: a path starts at a reference or user field',
    ],
    [
      'the list sort',
      spec({}, { screens: { lists: { event: { sort: 'organizers' } } } }),
      'screens.lists.event.sort: "organizers" holds many users: a list cannot be sorted by it',
    ],
    [
      'an own scope on a text field',
      scope({ own: 'name' }),
      'permissions.event.organizer.list.own: "name" is not a user or users field of event (such fields: organizers)',
    ],
  ])('refuses %s', (_kind, value, issue) => {
    const issues = issuesOf(value);
    expect(
      issues.some((i) => i.startsWith(issue)),
      issues.join('\n'),
    ).toBe(true);
  });

  it('describe says what it is, who owns by it and who may take a transition by it', () => {
    const text = describeMarkdown(buildModel(events));
    expect(text).toContain('| `organizers` | users (many) | no |  | at most maxOrganizers; held only by users with the role organizer |');
    expect(text).toContain('| `helpers` | users (many) | no |  | any number |');
    expect(text).toContain('own (organizers include them)');
    expect(text).toContain('| draft | published | one of the organizers, staff |');
    expect(text).toContain('Organizers (has any of)');
  });
});
