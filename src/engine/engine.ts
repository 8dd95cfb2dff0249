import type { Identity } from './identity/types';
import type { LiveFeed } from './live/feed';
import type { Ops } from './ops/ops';
import type { AppModel } from './spec/model';
import type { Store } from './store/types';

/** A running application: its checked spec, its database, and the operations over them. */
export interface Engine {
  readonly model: AppModel;
  readonly store: Store;
  readonly ops: Ops;
  readonly identity: Identity;
  /** The database's changes as they commit, for live pages (opened by the first subscriber). */
  readonly live: LiveFeed;
  close(): Promise<void>;
}
