import type { BenchConfig, DatabaseKind, Mode } from './config';
import type { LiveResult } from './live';
import type { BrowserResult } from './browser';
import type { SeedResult } from './cli';
import type { LoadResult, SequentialResult } from './http';
import type { ProfileSummary } from './profile';

/** The HTTP cases under load (10 connections), in the order they run. */
export const HTTP_CASES = ['listPage', 'detailPage', 'filteredPage', 'homePage', 'apiList', 'apiGet', 'apiCreate', 'baseline'] as const;
export type HttpCase = (typeof HTTP_CASES)[number];

export const HTTP_LABELS: Readonly<Record<HttpCase, string>> = {
  listPage: 'page `/tickets` (50 rows)',
  detailPage: 'page `/tickets/<id>`',
  filteredPage: 'page `/tickets?state=open&priority=high&sort=-dueAt&q=billing`',
  homePage: 'page `/` (home: counts per state and priority, my queue, overdue, 30-day chart)',
  apiList: 'API `GET /api/v1/tickets?limit=50`',
  apiGet: 'API `GET /api/v1/tickets/<id>`',
  apiCreate: 'API `POST /api/v1/tickets`',
  baseline: 'baseline `/diagnostics/baseline` (static rows, no DB, no session)',
};

/** The growth cases (sequential requests), each as a page and through the API. */
export const GROWTH_CASES = ['list', 'deep', 'filterSort', 'search'] as const;
export type GrowthCase = (typeof GROWTH_CASES)[number];

export const GROWTH_LABELS: Readonly<Record<GrowthCase, string>> = {
  list: 'list, first page',
  deep: 'deep page (cursor 20 pages in)',
  filterSort: 'filter + sort (`state=open&priority=high&sort=-dueAt`)',
  search: 'search (`q=billing`)',
};

/** Growth cases with a page only (no API of their own). */
export const PAGE_GROWTH_CASES = ['home'] as const;
export type PageGrowthCase = (typeof PAGE_GROWTH_CASES)[number];

export const PAGE_GROWTH_LABELS: Readonly<Record<PageGrowthCase, string>> = {
  home: 'home `/` (every widget of the helpdesk)',
};

export type GrowthAt = Record<`${'page' | 'api'}:${GrowthCase}` | `page:${PageGrowthCase}`, SequentialResult>;

export interface DatabaseResult {
  readonly kind: DatabaseKind;
  readonly smallTickets: number;
  readonly largeTickets: number;
  readonly seeding: SeedResult[];
  /** Cold starts: on the small database, then on the large one. */
  readonly coldStartMs: number[];
  /** True when start.mjs rebuilt the app before a start (the sources changed during the run). */
  rebuiltDuringRun: boolean;
  readonly rssIdleMb: { small?: number | null; large?: number | null };
  growth: { small?: GrowthAt; large?: GrowthAt };
  /** At the large size. */
  readonly http: Partial<Record<HttpCase, LoadResult>>;
  browser?: BrowserResult;
  /** Idle live streams at the large size (bench/lib/live.ts). */
  live?: LiveResult;
  profiles?: Partial<Record<HttpCase, ProfileSummary>>;
  readonly errors: string[];
}

export interface BenchResults {
  readonly mode: Mode;
  readonly startedAt: string;
  finishedAt?: string;
  durationSeconds?: number;
  readonly config: BenchConfig;
  readonly machine: Record<string, unknown>;
  build: { nextBuildSeconds?: number; npmCiSeconds?: number | null; fingerprint?: string; skipped?: string; error?: string };
  readonly databases: Partial<Record<DatabaseKind, DatabaseResult>>;
}
