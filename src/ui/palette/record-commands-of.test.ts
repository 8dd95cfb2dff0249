import { describe, expect, it } from 'vitest';
import type { TransitionOffer } from '@/engine/ops/types';
import { recordCommands } from './record-commands-of';
import type { OfferMode } from '../record/transition-plan';

const offer = (name: string, label: string): TransitionOffer => ({ name, label, to: 'x', available: true, requires: [] });
const item = (name: string, label: string, mode: OfferMode) => ({ plan: { offer: offer(name, label), mode, ask: [] } });

describe('recordCommands', () => {
  it('offers Edit and Delete only where the user may, and every transition the panel lets them take now', () => {
    const items = [item('start', 'Start', 'input'), item('resolve', 'Resolve', 'ready'), item('close', 'Close', 'blocked')];
    expect(recordCommands('/tickets/7', { update: true, delete: true }, items)).toEqual([
      { kind: 'link', label: 'Edit', href: '/tickets/7/edit', shortcut: 'edit' },
      { kind: 'transition', label: 'Start', name: 'start' },
      { kind: 'transition', label: 'Resolve', name: 'resolve' },
      { kind: 'link', label: 'Delete…', href: '/tickets/7/delete' },
    ]);
  });

  it('offers nothing a user may not do', () => {
    expect(recordCommands('/tickets/7', { update: false, delete: false }, [item('close', 'Close', 'blocked')])).toEqual([]);
  });
});
