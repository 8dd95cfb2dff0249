import { describe, expect, it } from 'vitest';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** A small spec whose `users` a test replaces (read as untrusted data, like a spec file). */
function specWith(users: unknown): AppSpec {
  return {
    name: 'teams',
    entities: {
      team: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
      request: { fields: { title: { type: 'text', required: true } } },
    },
    roles: { manager: { label: 'Manager' } },
    users,
  } as unknown as AppSpec;
}

const issuesOf = (users: unknown) => validateSpec(specWith(users)).map((i) => `${i.path}: ${i.message}`);

describe("the spec's checks of users.fields", () => {
  it('accepts reference, user, enum, text, integer and boolean fields', () => {
    expect(
      issuesOf({
        fields: {
          team: { type: 'reference', to: 'team', label: 'Team', help: 'Where they work.' },
          manager: { type: 'user', roles: ['manager'] },
          level: { type: 'enum', values: ['junior', 'senior'], default: 'junior', required: true },
          badge: { type: 'text', maxLength: 20 },
          desk: { type: 'integer', min: 1 },
          remote: { type: 'boolean', default: false },
        },
      }),
    ).toEqual([]);
  });

  it('needs { fields } and nothing else', () => {
    expect(issuesOf('team')).toEqual(['users: users must be an object, got "team"']);
    expect(issuesOf({})).toEqual([expect.stringMatching(/^users\.fields: is required/)]);
    expect(issuesOf({ fields: {}, roles: [] })).toEqual([
      expect.stringMatching(/^users\.roles: unknown key in users; expected one of fields/),
    ]);
  });

  it('refuses the other field types, with the types allowed', () => {
    expect(issuesOf({ fields: { since: { type: 'date' }, tags: { type: 'references', to: 'team' } } })).toEqual([
      'users.fields.since.type: a date field cannot be a user field (user fields are reference, user, enum, text, integer, boolean)',
      'users.fields.tags.type: a references field cannot be a user field (user fields are reference, user, enum, text, integer, boolean)',
    ]);
    expect(issuesOf({ fields: { team: {} } })).toEqual([expect.stringMatching(/^users\.fields\.team\.type: missing field type/)]);
  });

  it('refuses a reference to no entity, and unknown holder roles', () => {
    expect(issuesOf({ fields: { team: { type: 'reference', to: 'squad' }, boss: { type: 'user', roles: ['chief'] } } })).toEqual([
      'users.fields.team.to: unknown entity "squad"',
      'users.fields.boss.roles[0]: unknown role "chief" (roles: admin, manager)',
    ]);
  });

  it('refuses names that are not identifiers, "id", and two names sharing a column', () => {
    expect(
      issuesOf({
        fields: { 'Team-name': { type: 'text' }, id: { type: 'integer' }, homeTeam: { type: 'text' }, home_team: { type: 'text' } },
      }),
    ).toEqual([
      'users.fields.Team-name: field names are identifiers: camelCase letters and digits, starting with a lower-case letter',
      'users.fields.id: "id" is reserved: { actor: "id" } is the user\'s own id',
      'users.fields.home_team: field names are identifiers: camelCase letters and digits, starting with a lower-case letter',
      'users.fields.home_team: would share its column with user field "homeTeam"',
    ]);
  });

  it('refuses required without a default (accounts exist before their fields are set)', () => {
    expect(
      issuesOf({
        fields: {
          team: { type: 'reference', to: 'team', required: true },
          level: { type: 'enum', values: ['a'], required: true, default: 'a' },
        },
      }),
    ).toEqual([
      'users.fields.team.required: accounts exist before an administrator sets their fields: a required user field needs a default',
    ]);
  });

  it('refuses unique, searchable, writtenBy, readOnly, onDelete and a default user, saying why', () => {
    const issues = issuesOf({
      fields: {
        badge: { type: 'text', unique: true, searchable: true, writtenBy: 'calls', readOnly: true },
        team: { type: 'reference', to: 'team', onDelete: 'cascade' },
        boss: { type: 'user', default: 'actor' },
      },
    });
    expect(issues).toEqual([
      'users.fields.badge.unique: user fields cannot be unique (several people share a team or an organization)',
      'users.fields.badge.searchable: user fields are not searched (accounts are listed on /admin/users)',
      'users.fields.badge.writtenBy: administrators set user fields (on /admin/users or with the CLI), never calls',
      'users.fields.badge.readOnly: administrators set every user field; a read-only one could never be set',
      'users.fields.team.onDelete: a user field is emptied when the record it refers to is deleted (it never blocks nor deletes the account)',
      'users.fields.boss.default: a user field of an account has no default user, got "actor"',
    ]);
  });

  it('refuses unknown keys of a field, as for entities', () => {
    expect(issuesOf({ fields: { team: { type: 'reference', to: 'team', max: 3 } } })).toEqual([
      expect.stringMatching(/^users\.fields\.team\.max: unknown key in a reference field/),
    ]);
  });
});
