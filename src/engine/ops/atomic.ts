import { committing } from './after-commit';
import { createOps } from './create-ops';
import type { OpsContext } from './context';
import type { Ops } from './ops';

/**
 * Runs `fn` with ops whose every read and write belong to one transaction: what it changes is
 * saved together when it returns, and none of it when it throws. Custom calls run this way, so
 * that a call changing a record and adding a comment never leaves one without the other.
 */
export function atomically<T>(ctx: OpsContext, fn: (ops: Ops) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(createOps(ctx));
  return committing(() => ctx.db.transaction().execute((trx) => fn(createOps({ ...ctx, db: trx }))));
}
