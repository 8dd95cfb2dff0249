import type { Identity } from './identity/types';
import type { Ops } from './ops/ops';
import type { AppModel } from './spec/model';
import type { Store } from './store/types';

/** A running application: its checked spec, its database, and the operations over them. */
export interface Engine {
  readonly model: AppModel;
  readonly store: Store;
  readonly ops: Ops;
  readonly identity: Identity;
  close(): Promise<void>;
}
