import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import crm from '../../../examples/crm/ninefold.spec';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { openDeadline } from './demo-deadlines';
import { demoRecord } from './demo-record';
import { createdAgo, type SeedRun } from './seed-run';
import { specRoles } from './user-pools';
import type { Values } from './walk-step';

/*
 * Where the seeder puts the dates of a demo set, seeded in memory at a fixed "now": open records
 * mostly due ahead, a few due soon and a few overdue (by days, not months); finished ones in the past.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = new Date('2031-03-12T10:00:00Z');

function memoryRun(spec: AppSpec): SeedRun {
  const model = buildModel(spec);
  const byRole = new Map<string, number[]>();
  const rolesOf = new Map<number, string[]>();
  let id = 0;
  for (const role of specRoles(model)) {
    const ids = Array.from({ length: 5 }, () => ++id);
    for (const user of ids) rolesOf.set(user, [role]);
    byRole.set(role, ids);
  }
  faker.seed(23);
  return {
    model,
    faker,
    now: NOW,
    spanMs: 120 * DAY_MS,
    users: { byRole, rolesOf, created: [] },
    userFields: new Map(),
    seeded: new Map(),
    limitCounts: new Map(),
    pools: new Map(),
    indexes: new Map(),
    uniqueTaken: new Map(),
  };
}

/** `count` records of the entity, created between `from` and `to` ago as the seeder spreads them. */
function seedEntity(run: SeedRun, entity: string, count: number, from: number, to: number): Values[] {
  const model = run.model.entitiesByName[entity]!;
  const seeded = { ids: [] as number[], facts: [] as Values[] };
  run.seeded.set(entity, seeded);
  for (let i = 0; i < count; i++) {
    const made = demoRecord(run, model, new Date(NOW.getTime() - createdAgo((i + 0.5) / count, from, to)), i + 1);
    if ('noRoom' in made) throw new Error(made.noRoom);
    seeded.ids.push(i + 1);
    seeded.facts.push(made.facts);
  }
  return seeded.facts;
}

const time = (value: unknown) => (value instanceof Date ? value.getTime() : Date.parse(String(value)));

/** Where the open records' deadlines lie: overdue, due within `soonMs`, or later. */
function placement(run: SeedRun, entity: string, records: readonly Values[], soonMs: number) {
  const model = run.model.entitiesByName[entity]!;
  const deadlines = records.flatMap((r) => {
    const d = openDeadline(run.model, model, r, NOW);
    return d === null ? [] : [d - NOW.getTime()];
  });
  return {
    open: deadlines.length,
    overdue: deadlines.filter((d) => d < 0),
    soon: deadlines.filter((d) => d >= 0 && d < soonMs).length,
    later: deadlines.filter((d) => d >= soonMs).length,
  };
}

describe('demo dates relative to the moment of seeding', () => {
  it('helpdesk: open tickets mostly within their SLA, a few due within the day, a few overdue by days; closed ones in the past', () => {
    const run = memoryRun(helpdesk);
    seedEntity(run, 'organization', 10, 365 * DAY_MS, 120 * DAY_MS);
    const tickets = seedEntity(run, 'ticket', 300, 120 * DAY_MS, 0);
    const { open, overdue, soon, later } = placement(run, 'ticket', tickets, DAY_MS);
    expect(open).toBeGreaterThanOrEqual(20);
    expect(overdue.length).toBeGreaterThan(0);
    expect(overdue.length).toBeLessThan(open * 0.3);
    expect(Math.min(...overdue)).toBeGreaterThan(-4 * DAY_MS);
    expect(soon).toBeGreaterThan(0);
    expect(soon + later).toBeGreaterThan(open * 0.7);
    const closed = tickets.filter((t) => t.state === 'closed' || t.state === 'resolved');
    expect(closed.length).toBeGreaterThan(tickets.length / 2);
    for (const t of tickets) {
      expect(time(t.createdAt)).toBeLessThan(NOW.getTime());
      expect(time(t.updatedAt)).toBeLessThan(NOW.getTime());
    }
    for (const t of closed) expect(time(t.resolvedAt ?? t.updatedAt)).toBeLessThan(NOW.getTime());
  });

  it('crm: open deals are expected to close mostly ahead, a few overdue; won and lost deals ended in the past', () => {
    const run = memoryRun(crm);
    seedEntity(run, 'company', 10, 365 * DAY_MS, 120 * DAY_MS);
    seedEntity(run, 'contact', 40, 365 * DAY_MS, 120 * DAY_MS);
    // About one open deal in a hundred is kept late: with 300 deals (some fifty open) a third of
    // faker's seeds kept none, so the count was luck; 1,200 (over two hundred open) make it a few.
    const deals = seedEntity(run, 'deal', 1200, 120 * DAY_MS, 0);
    const { open, overdue, soon, later } = placement(run, 'deal', deals, 7 * DAY_MS);
    expect(open).toBeGreaterThanOrEqual(20);
    expect(overdue.length).toBeGreaterThan(0);
    expect(overdue.length).toBeLessThan(open * 0.3);
    expect(Math.min(...overdue)).toBeGreaterThan(-5 * DAY_MS);
    expect(soon).toBeGreaterThan(0);
    expect(soon + later).toBeGreaterThan(open * 0.7);
    const ended = deals.filter((d) => d.state === 'won' || d.state === 'lost');
    expect(ended.length).toBeGreaterThan(deals.length / 2);
    for (const d of ended) expect(time(d.updatedAt)).toBeLessThan(NOW.getTime());
  });
});
