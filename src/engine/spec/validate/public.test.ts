import { describe, expect, it } from 'vitest';
import { noticeBoardSpec } from '@testing/engine/public';
import { mayOpenRoute } from '../screens/routes';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** The raw spec as a tree any key of which a test may replace. */
interface Mutable {
  [key: string]: Mutable;
}

/** The subtree at a dotted path of the test's spec ("entities.loan"); a wrong path is the test's own mistake. */
function node(tree: Mutable, path: string): Mutable {
  return path.split('.').reduce((subtree, key) => {
    const next = subtree[key];
    if (next === undefined) throw new Error(`The test's spec has nothing at ${path} (no "${key}").`);
    return next;
  }, tree);
}

function boardWith(change: (spec: Mutable) => void): AppSpec {
  const copy = structuredClone(noticeBoardSpec) as unknown as Mutable;
  change(copy);
  return copy as unknown as AppSpec;
}

const issuesOf = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);
const VISITOR = 'visitors are not signed in; grant them list, read or create only';
const BUILT_IN = '"public" is the built-in role of visitors who are not signed in; they cannot';

describe('the spec checks of the built-in public role', () => {
  it('accepts public grants of list, read (with scopes and hidden fields) and create, declared as a role or not', () => {
    expect(issuesOf(noticeBoardSpec)).toEqual([]);
    expect(issuesOf(boardWith((s) => delete node(s, 'roles').public))).toEqual([]);
  });

  it('refuses update, delete and transitions granted to visitors, naming the place', () => {
    const issues = issuesOf(
      boardWith((s) => {
        const grant = node(s, 'permissions.notice').public as unknown as Record<string, unknown>;
        grant.update = true;
        grant.delete = { where: { field: 'state', op: 'eq', value: 'draft' } };
        grant.transitions = { publish: true };
      }),
    );
    expect(issues).toEqual([
      `permissions.notice.public.update: ${VISITOR}`,
      `permissions.notice.public.delete: ${VISITOR}`,
      `permissions.notice.public.transitions: ${VISITOR}`,
    ]);
  });

  it('refuses own and { actor } in a public scope: a visitor has no account', () => {
    const issues = issuesOf(
      boardWith((s) => {
        const grant = node(s, 'permissions.notice').public as unknown as Record<string, unknown>;
        grant.list = { own: 'author' };
        grant.read = {
          where: {
            any: [
              { field: 'state', op: 'eq', value: 'published' },
              { field: 'author', op: 'eq', value: { actor: true } },
            ],
          },
        };
      }),
    );
    expect(issues).toEqual([
      'permissions.notice.public.list.own: a visitor has no account, so owns no record; use where (or true) for the public',
      'permissions.notice.public.read.where: { actor } is the signed-in user; a visitor has none, so it would match nothing',
    ]);
  });

  it('refuses a public create where a required user field defaults to the signed-in user', () => {
    const issues = issuesOf(boardWith((s) => (node(s, 'entities.message.fields.sender').required = true as never)));
    expect(issues).toEqual([
      'permissions.message.public.create: message.sender is a required user field that defaults to the signed-in user; a visitor has none, so every create would fail (make the field optional, or grant create to signed-in roles)',
    ]);
  });

  it('refuses public where only signed-in users can be: transitions, calls, user fields, documentation', () => {
    const issues = issuesOf(
      boardWith((s) => {
        node(s, 'workflows.notice.transitions.publish').allow = ['agent', 'public'] as never;
        node(s, 'entities.notice.fields.author').roles = ['agent', 'public'] as never;
        s.screens = { documentation: { roles: ['public'] } } as never;
      }),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        `workflows.notice.transitions.publish.allow[1]: ${BUILT_IN} take transitions`,
        `entities.notice.fields.author.roles[1]: ${BUILT_IN} be chosen as a user`,
        `screens.documentation.roles[0]: ${BUILT_IN} read /spec and /api/docs, which are for signed-in users`,
      ]),
    );
    expect(issues).toHaveLength(3);
  });

  it('lets a custom route name public: visitors open it, and so does every signed-in user', () => {
    const spec = boardWith((s) => {
      s.screens = {
        routes: {
          news: {
            path: '/news',
            title: 'News',
            roles: ['public'],
            show: { list: 'notice', where: { field: 'state', op: 'eq', value: 'published' } },
          },
          desk: { path: '/desk', title: 'Desk', roles: ['agent'], show: { list: 'notice' } },
          all: { path: '/all', title: 'All', show: { list: 'notice' } },
        },
      } as never;
    });
    expect(issuesOf(spec)).toEqual([]);
    const byPath = Object.fromEntries(buildModel(spec).routes.map((r) => [r.path, r]));
    expect(mayOpenRoute(byPath['/news']!, ['public'])).toBe(true);
    expect(mayOpenRoute(byPath['/news']!, ['agent'])).toBe(true);
    expect(mayOpenRoute(byPath['/news']!, [])).toBe(true);
    expect(mayOpenRoute(byPath['/desk']!, ['public'])).toBe(false);
    // A route for every signed-in user is not for visitors.
    expect(mayOpenRoute(byPath['/all']!, ['public'])).toBe(false);
    expect(mayOpenRoute(byPath['/all']!, [])).toBe(true);
    // The document says so, in the routes' table and under it.
    const text = describeMarkdown(buildModel(spec));
    expect(text).toContain('anyone, signed in or not');
    expect(text).toContain('a signed-out visitor is sent to sign in (except on the routes that name `public`)');
  });
});
