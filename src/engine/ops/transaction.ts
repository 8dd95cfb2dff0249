import { sql, type Transaction } from 'kysely';
import type { DynamicDatabase } from '../store/types';
import { committing } from './after-commit';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are declared at run time
type DynamicTransaction = Transaction<any>;

let savepoints = 0;

/**
 * Runs one operation's statements in a transaction of their own, or, when `db` already is one
 * (a custom call, see atomically), under a savepoint: a refused operation then undoes only
 * itself, and the call may catch the refusal and go on.
 */
export async function inTransaction<T>(db: DynamicDatabase, fn: (trx: DynamicTransaction) => Promise<T>): Promise<T> {
  if (!db.isTransaction) return committing(() => db.transaction().execute(fn));
  const trx = db as DynamicTransaction;
  const name = sql.raw(`nf_op_${(savepoints += 1)}`);
  await sql`savepoint ${name}`.execute(trx);
  let result: T;
  try {
    result = await fn(trx);
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(trx);
    throw error;
  }
  await sql`release savepoint ${name}`.execute(trx);
  return result;
}
