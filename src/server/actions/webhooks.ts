'use server';

import { revalidatePath } from 'next/cache';
import type { AccountFormState } from '@/ui/forms/account-state';
import { formId, refused, succeeded } from '../account-forms';
import { getEngine } from '../engine';
import { requireAdmin } from '../session';

const PAGE = '/admin/webhooks';

/** "Send again" on /admin/webhooks: the delivery is due at once; the engine checks the administrator again. */
export async function sendWebhookAgainAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await requireAdmin(PAGE);
  try {
    await (await getEngine()).webhooks.sendAgain(actor, formId(formData, 'deliveryId') ?? 0);
  } catch (error) {
    return refused(state, error);
  }
  revalidatePath(PAGE);
  return succeeded(state, 'Queued: it is sent again within a scheduler interval.');
}
