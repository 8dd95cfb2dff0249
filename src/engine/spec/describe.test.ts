import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import seed from '../../../examples/seed/ninefold.spec';
import { BUILT_IN_ERRORS } from '../errors/catalogue';
import { buildModel } from './build';
import { describeDocument, describeMarkdown } from './describe';
import { conditionText } from './describe/text';
import { NOT_SHOWN, POINT_HEADINGS } from './document';
import { defineApp } from './define';

const helpdeskModel = buildModel(helpdesk);
const helpdeskMarkdown = describeMarkdown(helpdeskModel);

/** The Markdown lines of one point, from its heading to the next point's heading. */
function pointMarkdown(markdown: string, number: number): string {
  const start = markdown.indexOf(`\n## ${number}. `);
  const end = markdown.indexOf(`\n## ${number + 1}. `);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe('describeMarkdown', () => {
  it('prints the nine points of the helpdesk in order', () => {
    expect(helpdeskMarkdown.startsWith('# Helpdesk — the spec\n')).toBe(true);
    const headings = helpdeskMarkdown.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual(POINT_HEADINGS.map((heading, i) => `## ${i + 1}. ${heading}`));
  });

  it.each([
    // 1. purpose
    [1, 'Customers open tickets; agents answer'],
    [1, '- Support agents who work the ticket queue'],
    // 2. screens and routes
    [2, '| `/tickets/<id>/edit` | Edit | Form to change a ticket:'],
    [2, '| `/organizations/new` | New | Form to create an organization:'],
    [
      2,
      'related "Comments" (comments whose Ticket is this one, to viewers who may list them, with the count they may see): a thread, oldest first, each with its author (where the viewer may see who created it, else "Someone") and time and its Body, marked "Internal" when true, 50 per page (`?comments=<cursor>`); a reply box for viewers who may create a comment whose Ticket is this one (their create scope with this record in it), not while Closed; a comment by its requester takes the first available of "Reply", "Reopen" ("Reply" has no button of its own); where none is available to the one replying, the reply is saved all the same and the box says so beforehand, with why; beside the reply: "Reply and wait for customer", "Reply and resolve", when the viewer may take it (both saved or neither); the page reads as a conversation: long fields and the thread lead, the workflow, the requester with up to five of their other tickets not in a final state and the other fields beside it (on a phone: the thread, the workflow, then the fields folded); the reply box has two modes for viewers who may set Internal: "Reply" and "Internal note", the note marked while written and its buttons saying so',
    ],
    [2, 'the 403 page where the user may not change this one, never while Closed'],
    [4, 'A final state (closed) freezes the record: changes are refused with `TICKET_CLOSED`'],
    [
      4,
      "The pages ask for confirmation before a transition into a final state (on the detail page and in a list's bulk toolbar); the API takes it as asked.",
    ],
    [2, 'its state and the transitions the user may take (one into Closed asks for confirmation first)'],
    [2, 'Form to create a ticket ("Open a ticket")'],
    [
      2,
      'at most 100,000 rows a file for `admin`, `agent` (who may create any ticket; `importMaxRows`), 1,000 rows for the others (`importMaxRowsScoped`); a larger file is refused whole',
    ],
    [
      2,
      'a server holds at most 6 per session (`liveStreamsPerSession`) and 20 per user (`liveStreamsPerUser`), and refuses more with `RATE_LIMITED`',
    ],
    [
      2,
      'columns ID, Subject, State, Priority, SLA due, Requester, Assignee, Organization, Replies, Due, Updated; sorted by Updated, descending',
    ],
    [
      3,
      '| `replyCount` | integer | no |  | label "Replies"; read-only; derived: the number of comments of the ticket where internal is false (0 when none), kept by the engine in the same transaction as every write of them |',
    ],
    [2, 'filters State, Priority, SLA due (overdue, due in the next 24 hours), Organization, Assignee; the total count the user may see'],
    [
      2,
      'the columns shown and their order chosen by the user among those they may read (`?columns=`), the first ones kept where the table is too narrow for all; the whole state in the address (filters, search, sort, columns, page), which a user may save as a named view',
    ],
    [
      2,
      "Under a list, its saved views: the user's own and those an administrator shared with one of their roles (read-only for them), managed at `/views`.",
    ],
    [
      2,
      'on the selected rows (the panel shows once one is ticked): the transitions the user may take (one into a final state asks first), "Set" one value of Priority, Organization, Requester, Assignee, Due where the user may change it, Delete where the user may delete (asks first); each row changed on its own with the version the user saw, and each refused row reported with why',
    ],
    [2, '- Tickets: `/tickets`'],
    [2, '- My queue: `/queue` (agent, admin)\n- Tickets: `/tickets`'],
    [
      2,
      '| `/queue` | My queue (in the navigation): Tickets assigned to you that are open or pending, the oldest due first. | agent, admin | Tickets where assignee is you and state is one of open, pending, sorted by SLA due, ascending; columns ID, Subject, State, Priority, SLA due, Requester, Organization; the filters, search, pages and bulk actions of `/tickets` on top',
    ],
    [
      2,
      "| `/organizations/{id}/open` (id: integer) | Open tickets of an organization | agent, admin | Tickets where organization is the address's {id} and state is none of resolved, closed, sorted by SLA due, ascending;",
    ],
    [
      2,
      'A parameter of the wrong type (a word for an integer) is "not found"; a signed-out visitor is sent to sign in; a user whose roles may not open the route gets the 403 page.',
    ],
    [2, '### Home (`/`)'],
    [
      2,
      '| Tickets by state | How many tickets, per State (New, Open, Pending, Resolved, Closed, then any other value found), and the total; each a link to `/tickets` filtered by that State |',
    ],
    [2, '| Needs my action | Up to 5 tickets where assignee is you and state is one of open, pending, sorted by SLA due, ascending;'],
    [2, '| Overdue | Up to 5 tickets where slaDueAt is before now and state is none of resolved, closed, sorted by SLA due, ascending;'],
    [2, 'no "See all" link (no page lists exactly these records)'],
    [
      2,
      '| Created and resolved per day | Tickets per day (UTC) over the last 30 days, one line per Created (createdAt), Resolved (resolvedAt)',
    ],
    [2, 'Every number counts only the records the user may list.'],
    // 3. entities and fields
    [3, '| `priority` | enum: low, normal, high, urgent | yes | normal | shown as Low, Normal, High (orange badge), Urgent (red badge) |'],
    [3, '| `organization` | reference → organization | no |  | on delete: emptied |'],
    [3, '| `subject` | text | yes |  | searchable; min length 3; max length 200 |'],
    [3, '| `requester` | user | yes | the signed-in user |'],
    [
      3,
      '| `slaDueAt` | datetime | no |  | label "SLA due"; read-only; computed: createdAt + slaHours (hours per priority), set on create and when createdAt or priority changes, before the record rules and limits read it; overdue once passed unless state is one of resolved, closed;',
    ],
    [3, '| `state` | state: new, open, pending, resolved, closed | yes | new |'],
    // 4. states and transitions
    [4, '| `new` | New | initial |'],
    [4, '| `closed` | Closed | final |'],
    [4, '| Resolve (`resolve`) | open, pending | resolved | agent, admin | — | set resolvedAt to now |'],
    [4, 'the requester when resolvedAt is on or after reopenWindowDays days ago, agent, admin'],
    [4, '| Start (`start`) | new | open | agent, admin | assignee |'],
    [4, '```mermaid\nstateDiagram-v2\n    [*] --> new\n    new --> open: Start\n'],
    [4, '    pending --> resolved: Resolve\n'],
    [4, '    closed --> [*]\n```'],
    // 5. validation rules
    [5, '| `ticket.subject` | required; 3 to 200 characters |'],
    [5, '| `organization.name` | required; 2 to 120 characters; unique |'],
    [5, '| ticket: urgentNeedsAssignee | priority is urgent | assignee is present | An urgent ticket needs an assignee. | assignee |'],
    [5, '| dueAt is present | dueAt is after createdAt |'],
    [
      5,
      '| ticket: openTicketsPerCustomer | maxOpenTicketsPerCustomer (20) | requester (a user) | state is one of new, open, pending | agent, admin |',
    ],
    // 6. roles and permissions
    [6, "| `customer` | Customer | Opens tickets, follows their own and their organization's. |"],
    [
      6,
      "| `customer` | where requester is you or requester's organization is your organization | where requester is you or requester's organization is your organization | own (requester) | own (requester), where state is one of new, open, pending | — | hidden: organization, assignee; writable only: subject, description, attachments |",
    ],
    [
      6,
      "| `customer` | via ticket (readable), where internal is false | via ticket (readable), where internal is false | via ticket (readable), where internal is false and ticket's requester is you | — | — | hidden: internal |",
    ],
    [6, 'Whatever is not granted is refused; — means no access.'],
    [6, '| `customer` | — | — | — | — | — | — |'],
    // 8. error catalogue
    [8, '| `TICKET_CLOSED` | 409 | Ticket closed | This ticket is closed and can no longer be changed. |'],
    [8, '| `NOT_FOUND` | 404 | Not found |'],
    // 9. constants
    [9, '| `maxOpenTicketsPerCustomer` | 20 | tickets |'],
    [9, '| `slaHours` | urgent 4, high 8, normal 24, low 72 | hours |'],
    [9, '`workflows.ticket.transitions.reopen.allow[0].when.value.daysAgo`'],
  ])('point %i of the helpdesk says %s', (point, text) => {
    expect(pointMarkdown(helpdeskMarkdown, point)).toContain(text);
  });

  it('says "not shown" for a point the spec leaves empty', () => {
    // Point 7 also says who is told what (notifications, watch).
    const withoutCalls = describeMarkdown(buildModel({ ...helpdesk, calls: undefined, notifications: undefined, watch: undefined }));
    expect(pointMarkdown(withoutCalls, 7)).toBe('\n## 7. The calls\n\nnot shown\n');
  });

  it("lists the helpdesk's escalate call under point 7", () => {
    expect(pointMarkdown(helpdeskMarkdown, 7)).toContain(
      "| `escalate`: Raise a ticket's priority one step and record why | POST | `/api/v1/tickets/{id}/escalate` |",
    );
  });

  it('prints the seed as nine points, each "not shown"', () => {
    const expected = ['# Seed — the spec', ...POINT_HEADINGS.flatMap((heading, i) => [`## ${i + 1}. ${heading}`, NOT_SHOWN])].join('\n\n');
    expect(describeMarkdown(buildModel(seed))).toBe(`${expected}\n`);
  });

  it('prints the default home of a spec without one, and none for a spec without entities', () => {
    const model = buildModel(defineApp({ name: 'notes', entities: { note: { fields: { text: { type: 'text' } } } } }));
    expect(pointMarkdown(describeMarkdown(model), 2)).toContain(
      'For each entity of the navigation that the user may list: how many records they may see, and how many are in each state',
    );
    expect(describeMarkdown(buildModel(seed))).not.toContain('Home (');
  });

  it('says where a counts widget links, and that a sum is a sum', () => {
    const model = buildModel(
      defineApp({
        name: 'deals',
        entities: {
          deal: {
            fields: {
              name: { type: 'text' },
              amount: { type: 'decimal' },
              stage: { type: 'enum', values: ['lead', 'won'] },
              won: { type: 'boolean' },
            },
          },
        },
        screens: {
          lists: { deal: { filters: ['stage'] } },
          home: {
            title: 'Pipeline',
            widgets: [
              { kind: 'counts', entity: 'deal', by: 'stage', sum: 'amount', where: { field: 'won', op: 'eq', value: false } },
              { kind: 'counts', entity: 'deal', by: 'won' },
            ],
          },
        },
      }),
    );
    const point = pointMarkdown(describeMarkdown(model), 2);
    expect(point).toContain('Title: Pipeline');
    expect(point).toContain(
      '| Amount by stage | The sum of Amount of deals where won is false, per Stage (lead, won, then any other value found), and the total; each a link to `/deals` filtered by that Stage (the link does not carry the condition) |',
    );
    expect(point).toContain(
      '| Deals by won | How many deals, per Won (true, false, then any other value found), and the total; as plain numbers (the list cannot be filtered by it) |',
    );
  });

  it('says which roles a widget is for, on the home and on a dashboard route', () => {
    const model = buildModel(
      defineApp({
        name: 'deals',
        roles: { sales: {}, manager: {} },
        entities: { deal: { fields: { name: { type: 'text' }, won: { type: 'boolean' } } } },
        permissions: { deal: { sales: { list: true, read: true }, manager: { list: true, read: true } } },
        screens: {
          home: {
            widgets: [
              { kind: 'counts', entity: 'deal', by: 'won', roles: ['manager', 'admin'] },
              { kind: 'counts', entity: 'deal', by: 'won', title: 'Mine' },
            ],
          },
          routes: {
            board: {
              path: '/board',
              title: 'Board',
              roles: ['sales', 'manager'],
              show: { widgets: [{ kind: 'counts', entity: 'deal', by: 'won', title: 'Team', roles: ['manager'] }] },
            },
          },
        },
      }),
    );
    const point = pointMarkdown(describeMarkdown(model), 2);
    expect(point).toContain(
      '| Deals by won | How many deals, per Won (true, false, then any other value found), and the total; each a link to `/deals` filtered by that Won; shown only to manager, admin |',
    );
    expect(point).toContain(
      '| Mine | How many deals, per Won (true, false, then any other value found), and the total; each a link to `/deals` filtered by that Won |',
    );
    expect(point).toContain('so is one for other roles (administrators too, unless it names them)');
    expect(point).toContain('A dashboard like the home: "Team" (shown only to manager), every number within what the user may list');
  });

  it('escapes "|" in table cells and keeps each cell on one line', () => {
    const model = buildModel(
      defineApp({
        name: 'codes',
        entities: {
          code: {
            fields: {
              value: { type: 'text', pattern: '^(a|b)$', help: 'One letter:\nA or B' },
            },
          },
        },
      }),
    );
    const markdown = describeMarkdown(model);
    expect(markdown).toContain('| `value` | text | no |  | pattern `^(a\\|b)$`; One letter: A or B |');
    expect(markdown).toContain('| `code.value` | matches `^(a\\|b)$` |');
  });

  it('prints calls, and the built-in error codes even without codes of its own', () => {
    const model = buildModel(
      defineApp({
        ...helpdesk,
        errors: {},
        // Without codes of its own the workflow cannot name REOPEN_WINDOW_PASSED (nor TICKET_CLOSED) either.
        workflows: {
          ticket: {
            ...helpdesk.workflows.ticket,
            finalError: undefined,
            transitions: {
              ...helpdesk.workflows.ticket.transitions,
              reopen: { ...helpdesk.workflows.ticket.transitions.reopen, allow: ['agent', 'admin'] },
            },
          },
        },
        calls: {
          escalate: {
            method: 'POST',
            path: '/tickets/{id}/escalate',
            summary: 'Raise the priority',
            params: { id: 'integer' },
            input: { reason: { type: 'text', required: true } },
            output: 'ticket',
            roles: ['agent', 'admin'],
            errors: ['NOT_FOUND'],
            handler: async () => null,
          },
        },
      }),
    );
    const markdown = describeMarkdown(model);
    expect(pointMarkdown(markdown, 7)).toContain(
      '| `escalate`: Raise the priority | POST | `/api/v1/tickets/{id}/escalate` | id (integer, in the path); reason (text, required) | a ticket | agent, admin | NOT_FOUND |',
    );
    const point8 = pointMarkdown(markdown, 8);
    expect(point8).toContain('This application declares no codes of its own.\n\n### Built-in codes\n\n| Code | Status | Title | Message |');
    expect(point8).not.toContain('Codes of this application');
    for (const [code, error] of Object.entries(BUILT_IN_ERRORS))
      expect(point8).toContain(`| \`${code}\` | ${error.status} | ${error.title} |`);
  });

  it("lists the whole catalogue under point 8: the spec's own codes, then every built-in one", () => {
    const point8 = pointMarkdown(helpdeskMarkdown, 8);
    expect(point8.indexOf('### Codes of this application')).toBeLessThan(point8.indexOf('### Built-in codes'));
    expect(point8).toContain('| `REOPEN_WINDOW_PASSED` | 409 | Reopen window passed |');
    for (const [code, error] of Object.entries(BUILT_IN_ERRORS)) {
      expect(point8).toContain(`| \`${code}\` | ${error.status} | ${error.title} | ${error.message} |`);
    }
  });

  it('keeps point 8 "not shown" for a spec with neither entities, calls nor codes', () => {
    const onlyPurpose = buildModel(defineApp({ name: 'blank', purpose: { title: 'Blank' }, roles: { user: {} } }));
    expect(pointMarkdown(describeMarkdown(onlyPurpose), 8)).toBe('\n## 8. Error catalogue\n\nnot shown\n');
    const withEntity = buildModel(defineApp({ name: 'notes', entities: { note: { fields: { text: { type: 'text' } } } } }));
    expect(pointMarkdown(describeMarkdown(withEntity), 8)).toContain('| `NOT_FOUND` | 404 | Not found |');
  });

  it('prints each call of the helpdesk under point 7 with method, path, input, output, roles and errors', () => {
    const point7 = pointMarkdown(helpdeskMarkdown, 7);
    expect(point7).toContain('| Call | Method | Path | Input | Output | Roles | Errors |');
    for (const [name, call] of Object.entries(helpdeskModel.calls)) {
      const row = point7.split('\n').find((line) => line.startsWith(`| \`${name}\``));
      expect(row, name).toBeDefined();
      const cells = row!.split(' | ');
      expect(cells[1]).toBe(call.method);
      expect(cells[2]).toBe(`\`/api/v1${call.path}\``);
      expect(cells[5]).toBe(call.roles.join(', '));
      expect(cells[6]).toBe(`${call.errors?.join(', ') ?? '—'} |`);
    }
  });
});

describe('describeDocument', () => {
  it('numbers the nine points and marks the empty ones', () => {
    const document = describeDocument(helpdeskModel);
    expect(document.title).toBe('Helpdesk');
    expect(document.points.map((p) => [p.number, p.heading, p.empty])).toEqual(POINT_HEADINGS.map((heading, i) => [i + 1, heading, false]));
    const withoutCalls = describeDocument(buildModel({ ...helpdesk, calls: undefined, notifications: undefined, watch: undefined }));
    expect(withoutCalls.points.map((p) => p.empty)).toEqual(POINT_HEADINGS.map((_, i) => i === 6));
    expect(document.points[3]!.blocks.find((b) => b.kind === 'workflow')).toMatchObject({
      mermaid: expect.stringContaining('stateDiagram-v2'),
    });
  });

  it('gives the seed nine empty points without blocks', () => {
    const document = describeDocument(buildModel(seed));
    expect(document.points.every((p) => p.empty && p.blocks.length === 0)).toBe(true);
  });

  it('marks the first state initial when none is', () => {
    const model = buildModel(
      defineApp({
        name: 'doors',
        entities: { door: { fields: { name: { type: 'text' } } } },
        workflows: {
          door: {
            states: { shut: {}, open: {} },
            transitions: { push: { from: 'shut', to: 'open', allow: ['user'] } },
          },
        },
        roles: { user: {} },
      }),
    );
    const markdown = describeMarkdown(model);
    expect(markdown).toContain('| `shut` | Shut | initial |');
    expect(markdown).toContain('    [*] --> shut\n    shut --> open: Push');
  });
});

describe('conditionText', () => {
  const ticket = helpdeskModel.entitiesByName.ticket!;

  it('reads nested conditions, with constants by name', () => {
    expect(
      conditionText(
        {
          all: [
            {
              any: [
                { field: 'priority', op: 'eq', value: 'urgent' },
                { field: 'assignee', op: 'absent' },
              ],
            },
            { not: { field: 'dueAt', op: 'lt', value: { daysAgo: { $constant: 'reopenWindowDays' } } } },
            { field: 'organization', op: 'ne', value: null },
          ],
        },
        ticket,
      ),
    ).toBe('(priority is urgent or assignee is absent) and not (dueAt is before reopenWindowDays days ago) and organization is not empty');
  });

  it('uses amounts for numbers and times for dates', () => {
    const comment = helpdeskModel.entitiesByName.comment!;
    expect(conditionText({ field: 'id', op: 'gte', value: 10 }, comment)).toBe('id is at least 10');
    expect(conditionText({ field: 'createdAt', op: 'gt', value: { now: true } }, comment)).toBe('createdAt is after now');
    expect(conditionText({ field: 'internal', op: 'notIn', value: [true] }, comment)).toBe('internal is none of true');
  });
});

describe('the workflow diagram block', () => {
  it('carries every state and one edge per source state of each transition, and its Mermaid text', () => {
    const point4 = describeDocument(buildModel(helpdesk)).points[3]!;
    const diagram = point4.blocks.find((b) => b.kind === 'workflow');
    expect(diagram?.kind).toBe('workflow');
    if (diagram?.kind !== 'workflow') return;
    expect(diagram.states.map((s) => s.name)).toEqual(['new', 'open', 'pending', 'resolved', 'closed']);
    expect(diagram.states.filter((s) => s.initial).map((s) => s.name)).toEqual(['new']);
    expect(diagram.edges).toContainEqual({ from: 'pending', to: 'resolved', label: 'Resolve' });
    expect(diagram.edges).toHaveLength(7);
    expect(diagram.mermaid).toContain('resolved --> open: Reopen');
  });
});

describe('custom routes in point 2', () => {
  it('says what each kind of route shows and who may open it', () => {
    const markdown = describeMarkdown(
      buildModel({
        ...helpdesk,
        screens: {
          ...helpdesk.screens,
          routes: {
            org: { path: '/orgs/{id}/page', title: 'Organization', params: { id: 'integer' }, show: { record: 'organization', id: 'id' } },
            board: {
              path: '/board',
              title: 'Board',
              roles: ['agent'],
              show: { widgets: [{ kind: 'counts', entity: 'ticket', by: 'state', title: 'By state' }] },
            },
            hello: { path: '/hello', title: 'Hello', show: { component: () => null } },
          },
        },
      }),
    );
    const point = pointMarkdown(markdown, 2);
    expect(point).toContain(
      '| `/orgs/{id}/page` (id: integer) | Organization | every signed-in user | One organization, its id from `{id}`: the page of `/organizations/<id>` (not found where the user may not read it) |',
    );
    expect(point).toContain(
      '| `/board` | Board | agent | A dashboard like the home: "By state", every number within what the user may list |',
    );
    expect(point).toContain(
      "| `/hello` | Hello | every signed-in user | A page of the spec's own (a React Server Component), given the address's parameters, the user and the operations under the user's access |",
    );
    expect(point).not.toContain('My queue');
  });
});

describe('titles in point 3', () => {
  it('says how records titled by a reference or a user are named', () => {
    const markdown = describeMarkdown(
      buildModel(
        defineApp({
          name: 'library',
          entities: {
            item: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
            loan: { titleField: 'item', fields: { item: { type: 'reference', to: 'item', required: true } } },
            shift: { titleField: 'nurse', fields: { nurse: { type: 'user' } } },
            tally: { fields: { count: { type: 'integer' } } },
          },
        }),
      ),
    );
    const point = pointMarkdown(markdown, 3);
    expect(point).toContain('Table `item`; title field `name`.');
    expect(point).toContain(
      'Table `loan`; title field `item`: a record is named by its item\'s title, as the user sees that item ("Loan #<id>" when they may not read it).',
    );
    expect(point).toContain('Table `shift`; title field `nurse`: a record is named by that user\'s name ("Shift #<id>" when none).');
    expect(point).toContain('Table `tally`; title field — (records are named "Tally #<id>").');
  });
});
