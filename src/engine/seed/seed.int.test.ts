import { beforeAll, describe, expect, it } from 'vitest';
import crm from '../../../examples/crm/ninefold.spec';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { createOps } from '../ops/create-ops';
import { openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import type { AppModel } from '../spec/model';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { seedDemoData } from './seed-demo-data';
import { countDue } from '../ops/auto-transitions';

const quiet = { start: () => {}, advance: () => {}, stop: () => {} };
const PLACEHOLDER_WORDS = /\b(lorem|ipsum|dolor|amet|consectetur|adipisci|voluptas|quia|eiusmod)\b/i;
type Row = Record<string, unknown>;

async function seeded(model: AppModel, store: Store, count: number) {
  return seedDemoData(model, store.db, count, quiet);
}

async function rolesById(store: Store): Promise<Map<number, string[]>> {
  const users = await store.db.selectFrom('nf_user').select(['id', 'roles']).execute();
  return new Map(users.map((u) => [Number(u.id), u.roles as string[]]));
}

async function rows(store: Store, table: string): Promise<Row[]> {
  return store.db.selectFrom(table).selectAll().orderBy('id').execute() as Promise<Row[]>;
}

async function audit(store: Store, entity: string): Promise<Row[]> {
  return store.db.selectFrom('nf_audit').selectAll().where('entity', '=', entity).orderBy('id').execute() as Promise<Row[]>;
}

const time = (value: unknown) => new Date(value as Date).getTime();

/** Every record has one `create` row at its creation, then one row per transition, in time order, ending at its last update. */
function expectHistoryOfEach(records: Row[], history: Row[]): void {
  const byRecord = new Map<number, Row[]>();
  for (const h of history) byRecord.set(Number(h.record_id), [...(byRecord.get(Number(h.record_id)) ?? []), h]);
  for (const record of records) {
    const entries = byRecord.get(Number(record.id)) ?? [];
    expect(entries[0]?.action, `history of #${String(record.id)}`).toBe('create');
    expect(entries.filter((e) => e.action === 'create')).toHaveLength(1);
    expect(time(entries[0]!.at)).toBe(time(record.created_at));
    expect(entries).toHaveLength(Number(record.version));
    expect(time(entries.at(-1)!.at)).toBe(time(record.updated_at));
    const times = entries.map((e) => time(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  }
}

forEachDatabase('seed: coherent demo data for the helpdesk', (database) => {
  const model = buildModel(helpdesk);
  let store: Store;
  let roles: Map<number, string[]>;
  let tickets: Row[];

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    const result = await seeded(model, store, 300);
    expect(result.rows).toEqual({ organization: 6, ticket: 300, comment: 150 });
    roles = await rolesById(store);
    tickets = await rows(store, 'ticket');
  }, 120_000);

  it('has tickets requested by customers and assigned to agents only', () => {
    expect(tickets).toHaveLength(300);
    for (const t of tickets) {
      expect(roles.get(Number(t.requester))).toEqual(['customer']);
      if (t.assignee !== null) expect(roles.get(Number(t.assignee))).toEqual(['agent']);
    }
    expect(tickets.filter((t) => t.assignee !== null).length).toBeGreaterThan(100);
  });

  it('spreads tickets over the workflow, each with what its state needs', () => {
    const states = new Set(tickets.map((t) => t.state));
    expect([...states].sort()).toEqual(['closed', 'new', 'open', 'pending', 'resolved']);
    for (const t of tickets) {
      const done = t.state === 'resolved' || t.state === 'closed';
      if (done) expect(time(t.resolved_at)).toBeGreaterThan(time(t.created_at));
      else expect(t.resolved_at).toBeNull();
      if (t.resolved_at !== null) expect(time(t.resolved_at)).toBeLessThanOrEqual(time(t.updated_at));
      if (t.state !== 'new') expect(t.assignee, `ticket #${String(t.id)} in ${String(t.state)}`).not.toBeNull();
      if (t.priority === 'urgent') expect(t.assignee).not.toBeNull();
      expect(time(t.updated_at)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('keeps due times after creation and the SLA due time as the engine computes it', () => {
    const hours = helpdesk.constants!.slaHours.value as Record<string, number>;
    for (const t of tickets) {
      if (t.due_at !== null) expect(time(t.due_at)).toBeGreaterThan(time(t.created_at));
      expect(time(t.sla_due_at)).toBe(time(t.created_at) + hours[String(t.priority)]! * 3_600_000);
    }
  });

  /** The most open tickets one customer has: never above the spec's limit. */
  function mostOpenPerCustomer(list: Row[]): number {
    const open = new Map<unknown, number>();
    for (const t of list) if (['new', 'open', 'pending'].includes(String(t.state))) open.set(t.requester, (open.get(t.requester) ?? 0) + 1);
    return Math.max(...open.values());
  }

  it('keeps each customer below the open-ticket limit, so that every demo customer can still open one', () => {
    expect(mostOpenPerCustomer(tickets)).toBeLessThan(helpdesk.constants!.maxOpenTicketsPerCustomer.value as number);
  });

  it('has comments written after their ticket, by its requester or by agents, internal notes by agents only', async () => {
    const byId = new Map(tickets.map((t) => [t.id, t]));
    const comments = await rows(store, 'comment');
    for (const c of comments) {
      const ticket = byId.get(c.ticket)!;
      expect(time(c.created_at)).toBeGreaterThan(time(ticket.created_at));
      const author = roles.get(Number(c.created_by));
      if (author?.includes('customer')) {
        expect(c.created_by).toBe(ticket.requester);
        expect(c.internal).toBe(false);
      } else {
        expect(author).toEqual(['agent']);
      }
    }
    expect(comments.some((c) => roles.get(Number(c.created_by))?.includes('customer'))).toBe(true);
    expect(comments.some((c) => c.internal === true)).toBe(true);
  });

  it("gives customers an organization, shared by two, so they see each other's tickets (staff get none)", async () => {
    const users = await store.db.selectFrom('nf_user').select(['id', 'roles', 'f_organization']).execute();
    const organizations = new Set((await rows(store, 'organization')).map((o) => Number(o.id)));
    const customers = users.filter((u) => (u.roles as string[]).includes('customer'));
    for (const customer of customers) expect(organizations.has(Number(customer.f_organization))).toBe(true);
    const members = new Map<number, number>();
    for (const c of customers) members.set(Number(c.f_organization), (members.get(Number(c.f_organization)) ?? 0) + 1);
    expect(Math.max(...members.values())).toBeGreaterThanOrEqual(2);
    for (const staff of users.filter((u) => !(u.roles as string[]).includes('customer'))) expect(staff.f_organization).toBeNull();
  });

  it('writes plain English, never placeholder Latin', async () => {
    const texts = [...tickets.flatMap((t) => [t.subject, t.description]), ...(await rows(store, 'comment')).map((c) => c.body)];
    const found = texts.filter((text) => typeof text === 'string' && PLACEHOLDER_WORDS.test(text));
    expect(found).toEqual([]);
    expect(new Set(tickets.map((t) => t.subject)).size).toBeGreaterThan(100);
  });

  it('gives every record its history, which ops read back as transitions', async () => {
    expectHistoryOfEach(tickets, await audit(store, 'ticket'));
    expectHistoryOfEach(await rows(store, 'comment'), await audit(store, 'comment'));
    expectHistoryOfEach(await rows(store, 'organization'), await audit(store, 'organization'));

    const closed = tickets.find((t) => t.state === 'closed')!;
    const admin = [...roles].find(([, r]) => r.includes('admin'))!;
    const ops = createOps({ model, db: store.db });
    const page = await ops.history({ userId: admin[0], email: 'admin', name: 'Admin', roles: ['admin'] }, 'ticket', Number(closed.id));
    const oldestFirst = [...page.entries].reverse();
    expect(oldestFirst[0]!.action).toBe('create');
    expect(oldestFirst.at(-1)).toMatchObject({ action: 'transition', transition: { name: 'close', to: 'closed', label: 'Close' } });
    const resolving = oldestFirst.find((e) => e.transition?.name === 'resolve')!;
    expect(resolving.changes.resolvedAt!.to).toBeInstanceOf(Date);
  });

  it('leaves nothing for the scheduler: resolved tickets older than autoCloseDays were closed automatically, at their time', async () => {
    const ctx = { model, db: store.db };
    expect(await countDue(ctx, new Date())).toBe(0);
    const automatic = (await audit(store, 'ticket')).filter(
      (h) => (h.changes as { transition?: { automatic?: boolean } }).transition?.automatic === true,
    );
    expect(automatic.length).toBeGreaterThan(0);
    for (const entry of automatic) expect(entry.actor_id).toBeNull();
    const resolved = tickets.filter((t) => t.state === 'resolved');
    const days = helpdesk.constants!.autoCloseDays!.value as number;
    for (const t of resolved) expect(Date.now() - time(t.resolved_at)).toBeLessThan(days * 86_400_000);
  });

  it('adds to what is there when run again, within the limits and unique values of the first run', async () => {
    const result = await seeded(model, store, 200);
    expect(result.rows.ticket).toBe(200);
    const all = await rows(store, 'ticket');
    expect(all).toHaveLength(500);
    expect(mostOpenPerCustomer(all)).toBeLessThanOrEqual(helpdesk.constants!.maxOpenTicketsPerCustomer.value as number);
    const names = (await rows(store, 'organization')).map((o) => String(o.name).toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });
});

forEachDatabase('seed: coherent demo data for the CRM', (database) => {
  const model = buildModel(crm);
  let store: Store;
  let roles: Map<number, string[]>;
  let deals: Row[];

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    await seeded(model, store, 200);
    roles = await rolesById(store);
    deals = await rows(store, 'deal');
  }, 120_000);

  it('has deals owned by salespeople, spread over the pipeline', () => {
    expect(deals).toHaveLength(200);
    for (const d of deals) expect(roles.get(Number(d.owner))).toEqual(['sales']);
    const states = new Set(deals.map((d) => d.state));
    expect([...states].sort()).toEqual(['lead', 'lost', 'proposal', 'qualified', 'won']);
  });

  it('has won deals with their time and a value, and only deals with a value past qualified', () => {
    for (const d of deals) {
      if (d.state === 'won') expect(time(d.won_at)).toBeGreaterThan(time(d.created_at));
      else expect(d.won_at).toBeNull();
      if (d.state === 'proposal' || d.state === 'won') expect(Number(d.value)).toBeGreaterThan(0);
      expect(Number(d.discount ?? 0)).toBeLessThanOrEqual(20);
    }
  });

  it("ties a deal's contact to the deal's company, and lets the owner write the deal's notes", async () => {
    const contacts = new Map((await rows(store, 'contact')).map((c) => [c.id, c]));
    for (const d of deals) if (d.contact !== null) expect(contacts.get(d.contact)!.company).toBe(d.company);
    const owners = new Map(deals.map((d) => [d.id, d.owner]));
    for (const n of await rows(store, 'note')) {
      if (roles.get(Number(n.created_by))?.includes('sales')) expect(n.created_by).toBe(owners.get(n.deal));
      else expect(roles.get(Number(n.created_by))).toEqual(['manager']);
    }
  });

  it('records who lost a deal and why', async () => {
    const lost = await store.db
      .selectFrom('nf_audit')
      .select(['actor_id', 'changes'])
      .where('entity', '=', 'deal')
      .where('action', '=', 'lose')
      .execute();
    expect(lost.length).toBeGreaterThan(0);
    for (const row of lost) {
      const changes = (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as {
        transition: { comment: string | null };
      };
      expect(changes.transition.comment).toMatch(/^[A-Z].+[.!?]$/);
    }
  });
});

describe('the CRM example', () => {
  it('builds into a model with its screens', () => {
    const model = buildModel(crm);
    expect(model.entities.map((e) => e.plural)).toEqual(['companies', 'contacts', 'deals', 'notes']);
    expect(model.home?.widgets.map((w) => w.kind)).toEqual(['counts', 'counts', 'list', 'chart']);
    expect(model.routes.map((r) => r.path)).toEqual(['/my-deals']);
  });
});
