import type { Notifications } from './notify/notifications';
import type { ImportOptions, ImportReport } from './backup/import';
import type { Calls } from './calls/calls';
import type { EngineHealth } from './health';
import type { Identity } from './identity/types';
import type { LiveFeed } from './live/feed';
import type { Ops } from './ops/ops';
import type { Files } from './files/files';
import type { SeedProgress, SeedResult } from './seed/seed-demo-data';
import type { AppModel } from './spec/model';
import type { DatabaseKind, StoreAvailability } from './store/types';
import type { SavedViews } from './views/types';
import type { Scheduler } from './scheduler/scheduler';
import type { WebhookAdmin } from './notify/webhooks/admin';

/**
 * A running application: its checked spec and the operations over its database. The database
 * itself stays inside: doors ask the engine, never SQL (tests reach it through testing/engine/engine.ts).
 */
export interface Engine {
  readonly model: AppModel;
  /** Which database it runs on, for messages and the health route. */
  readonly databaseKind: DatabaseKind;
  readonly ops: Ops;
  /** Uploaded files: staged by uploads, read through their record's access (src/engine/files). */
  readonly files: Files;
  readonly identity: Identity;
  /** Each user's saved list views, checked against the same access as the lists. */
  readonly views: SavedViews;
  /** The spec's custom calls (point 7), checked and run in one transaction. */
  readonly calls: Calls;
  /** The database's changes as they commit, for live pages (opened by the first subscriber). */
  readonly live: LiveFeed;
  /** Whether the database answers, as this process last found out, for the outage door (no query). */
  readonly availability: Pick<StoreAvailability, 'down' | 'checking'>;
  /** Each user's in-app notifications and choices (src/engine/notify). */
  readonly notifications: Notifications;
  /** Takes automatic transitions when they fall due; servers start it, the CLI does not. */
  readonly scheduler: Scheduler;
  /** The webhooks' state and delivery log, and "send again", for administrators. */
  readonly webhooks: WebhookAdmin;
  /** Asks the database now whether it answers and would take a write. */
  health(): Promise<EngineHealth>;
  /** Restores a backup into this engine's empty database (src/engine/backup/import.ts). */
  importBackup(lines: AsyncIterable<string>, options?: Omit<ImportOptions, 'model'>): Promise<ImportReport>;
  /** Fills the database with demo records and users (src/engine/seed). */
  seedDemo(count: number, progress: SeedProgress): Promise<SeedResult>;
  close(): Promise<void>;
}
