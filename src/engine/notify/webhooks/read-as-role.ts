import { isNinefoldError } from '../../errors/ninefold-error';
import type { Actor } from '../../ground/actor';
import type { OpsContext } from '../../ops/context';
import { getRecord } from '../../ops/read';
import type { ReadRecordAs, WebhookChange } from './change';

/**
 * Someone holding only `role`, with no account: what a webhook's payload is read as. Its
 * grants, scopes and hidden fields are the role's; a scope tied to the reader ("own tickets")
 * matches nothing, since this reader owns nothing.
 */
function roleReader(role: string): Actor {
  return { userId: 0, email: '', name: `webhook reader (${role})`, roles: [role], fields: {} };
}

/** Reads the changed record through ops, as each webhook's role: the `readRecordAs` of enqueueWebhookDeliveries. */
export function readRecordAsRole(ctx: OpsContext, change: Pick<WebhookChange, 'entity' | 'recordId'>): ReadRecordAs {
  return async (role) => {
    try {
      return (await getRecord(ctx, roleReader(role), change.entity, Number(change.recordId))).record;
    } catch (error) {
      if (isNinefoldError(error) && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  };
}
