import type { RecordCan } from '@/engine/ops/types';
import type { TransitionItem } from '../record/transition-panel';
import type { RecordCommand } from './record-commands';

/**
 * The record page's actions as palette commands, from what the page itself offers (ops' `can`
 * and the workflow panel's transitions): Edit and Delete where the user may, and each transition
 * the panel lets them take now. A blocked one is left out: the palette never offers what ops refuses.
 */
export function recordCommands(base: string, can: RecordCan, transitions: readonly Pick<TransitionItem, 'plan'>[]): RecordCommand[] {
  return [
    ...(can.update ? [{ kind: 'link', label: 'Edit', href: `${base}/edit`, shortcut: 'edit' } as const] : []),
    ...transitions
      .filter(({ plan }) => plan.mode !== 'blocked')
      .map(({ plan }): RecordCommand => ({ kind: 'transition', label: plan.offer.label, name: plan.offer.name })),
    ...(can.delete ? [{ kind: 'link', label: 'Delete…', href: `${base}/delete` } as const] : []),
  ];
}
