import { describe, expect, it } from 'vitest';
import helpdesk from '../../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../build';
import { choiceFor, listFor, workflowFor } from '../screens/for-roles';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** A small spec with a workflow and two roles, its parts replaced by `patch` (raw: a JavaScript spec may hold anything). */
function spec(patch: { purpose?: unknown; list?: unknown; pending?: unknown }): AppSpec {
  return {
    name: 'desk',
    purpose: { title: 'Desk', summary: 'For staff.', ...(patch.purpose as object) },
    roles: { staff: {}, client: {} },
    screens: patch.list === undefined ? {} : { lists: { job: patch.list as never } },
    entities: {
      job: {
        titleField: 'title',
        fields: {
          title: { type: 'text', required: true },
          kind: { type: 'enum', values: ['a', 'b'] },
          owner: { type: 'user' },
          dueAt: { type: 'datetime', due: { from: 'createdAt', hours: 4 } },
        },
      },
    },
    workflows: {
      job: {
        states: { todo: { initial: true }, pending: { label: 'Pending', ...(patch.pending as object) }, done: { final: true } },
        transitions: {},
      },
    },
  } as AppSpec;
}

const issuesOf = (s: AppSpec) => validateSpec(s).map((i) => `${i.path}: ${i.message}`);

describe('choices per role', () => {
  it('refuses an unknown role, an unknown column, an unknown key and a non-boolean in a role’s list', () => {
    const issues = issuesOf(
      spec({
        list: {
          roles: {
            visitor: { columns: ['title'] },
            client: { columns: ['title', 'price'], filters: ['colour'], sort: '-cost', bulk: 'no', import: 0, pageSize: 5 },
          },
        },
      }),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        'screens.lists.job.roles.visitor: unknown role "visitor" (roles: admin, staff, client, public)',
        expect.stringMatching(/^screens\.lists\.job\.roles\.client\.columns\[1\]: unknown column "price" of job/),
        expect.stringMatching(/^screens\.lists\.job\.roles\.client\.filters\[0\]: unknown column "colour" of job/),
        expect.stringMatching(/^screens\.lists\.job\.roles\.client\.sort: unknown column "cost" of job/),
        'screens.lists.job.roles.client.bulk: must be true or false, got "no"',
        'screens.lists.job.roles.client.import: must be true or false, got 0',
        expect.stringMatching(/^screens\.lists\.job\.roles\.client\.pageSize: unknown key in a role's list/),
      ]),
    );
    expect(issuesOf(spec({ list: { roles: { client: [] } } }))).toContain(
      "screens.lists.job.roles.client: a role's list must be an object, got a list",
    );
  });

  it('refuses a summary for an unknown role, for visitors (who never see the home), or without text', () => {
    const issues = issuesOf(spec({ purpose: { roles: { clients: { summary: 'x' }, public: { summary: 'y' }, client: { words: 'z' } } } }));
    expect(issues).toEqual(
      expect.arrayContaining([
        'purpose.roles.clients: unknown role "clients" (roles: admin, staff, client)',
        'purpose.roles.public: unknown role "public" (roles: admin, staff, client)',
        'purpose.roles.client.summary: is required',
        expect.stringMatching(/^purpose\.roles\.client\.words: unknown key in a role's purpose/),
      ]),
    );
  });

  it('refuses words of a state for an unknown role, or words that say nothing', () => {
    expect(issuesOf(spec({ pending: { roles: { ghost: { label: 'Boo' } } } }))).toContain(
      'workflows.job.states.pending.roles.ghost: unknown role "ghost" (roles: admin, staff, client, public)',
    );
    expect(issuesOf(spec({ pending: { roles: { client: {} } } }))).toContain(
      'workflows.job.states.pending.roles.client: says nothing: give a label, a description or both',
    );
    expect(issuesOf(spec({ pending: { roles: { client: { label: 3 } } } }))).toContain(
      'workflows.job.states.pending.roles.client.label: must be a string, got 3',
    );
  });

  it('accepts the helpdesk’s and builds a role’s list from the list’s own, its filters from its columns', () => {
    expect(issuesOf(helpdesk)).toEqual([]);
    const model = buildModel(
      spec({
        list: {
          columns: ['title', 'state', 'kind', 'owner', 'dueAt'],
          sort: 'title',
          roles: { client: { columns: ['title', 'state'], bulk: false } },
        },
        pending: { description: 'Waiting on someone.', roles: { client: { label: 'Waiting for you' } } },
        purpose: { roles: { client: { summary: 'Your jobs.' } } },
      }),
    );
    const job = model.entitiesByName.job!;
    expect(job.list.filters).toEqual(['state', 'kind', 'owner', 'dueAt']);
    expect(job.list.roles.client).toMatchObject({
      columns: ['title', 'state'],
      filters: ['state'],
      sort: { field: 'title', direction: 'asc' },
      bulk: false,
      import: true,
    });
    const client = { roles: ['client'] };
    expect(listFor(job, client)).toBe(job.list.roles.client);
    expect(listFor(job, { roles: ['client', 'staff'] })).toBe(job.list);
    // The role's label; the description the state's own, since the role gives none.
    expect(workflowFor(job.workflow!, client).states[1]).toMatchObject({ label: 'Waiting for you', description: 'Waiting on someone.' });
    expect(workflowFor(job.workflow!, { roles: ['staff'] })).toBe(job.workflow);
    expect(model.summaries).toEqual({ client: 'Your jobs.' });
  });

  it('applies to a viewer whose every role has a choice, the first in the spec’s order', () => {
    const byRole = { client: 'c', staff: 's' };
    expect(choiceFor(byRole, { roles: ['staff', 'client'] })).toBe('c');
    expect(choiceFor(byRole, { roles: ['staff'] })).toBe('s');
    expect(choiceFor(byRole, { roles: ['staff', 'admin'] })).toBeNull();
    expect(choiceFor(byRole, { roles: [] })).toBeNull();
    expect(choiceFor({ public: 'p' }, { roles: [] })).toBe('p');
  });
});
