import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import type { HistoryEntry } from '@/engine/ops/types';
import { buildModel } from '@/engine/spec/build';
import { describeHistoryEntry } from './history-text';

const ticket = buildModel(helpdesk).entitiesByName.ticket!;
const at = new Date('2025-03-04T14:00:00Z');
const by = { id: 7, name: 'Agent Seven' };

describe('history entries as text', () => {
  it('says "created", without listing the initial values', () => {
    const entry: HistoryEntry = { id: 1, at, actor: by, action: 'create', changes: { subject: { from: null, to: 'Hi' } } };
    expect(describeHistoryEntry(ticket, entry, {}, 'UTC', 'en-US')).toEqual({ verb: 'created', comment: null, changes: [] });
  });

  it('says which files a record came with, and which were attached and removed since, by name', () => {
    const files = { 4: 'shot.png', 5: 'report.pdf', 6: 'old.txt' };
    const created: HistoryEntry = {
      id: 1,
      at,
      actor: by,
      action: 'create',
      changes: { subject: { from: null, to: 'Hi' }, attachments: { from: null, to: [4] } },
    };
    expect(describeHistoryEntry(ticket, created, { attachments: files }, 'UTC', 'en-US').changes).toEqual([
      { field: 'attachments', label: 'Attachments', from: '—', to: 'shot.png', sentence: 'attached shot.png' },
    ]);
    const changed: HistoryEntry = { id: 2, at, actor: by, action: 'update', changes: { attachments: { from: [4, 6], to: [4, 5] } } };
    expect(describeHistoryEntry(ticket, changed, { attachments: files }, 'UTC', 'en-US').changes[0]?.sentence).toBe(
      'attached report.pdf, removed old.txt',
    );
  });

  it('names the cause of a change made as the effect of a write on another record', () => {
    const cause = { entity: 'loan', recordId: 12, action: 'checkOut', text: 'by transition Check out of Loan #12' };
    const entry: HistoryEntry = { id: 9, at, actor: by, action: 'update', changes: { priority: { from: 'normal', to: 'high' } }, cause };
    expect(describeHistoryEntry(ticket, entry, {}, 'UTC', 'en-US')).toMatchObject({
      verb: 'changed',
      cause: 'by transition Check out of Loan #12',
    });
    expect(describeHistoryEntry(ticket, { ...entry, cause: undefined }, {}, 'UTC', 'en-US')).not.toHaveProperty('cause');
  });

  it('prints a change with the field label and formatted values, in field order', () => {
    const entry: HistoryEntry = {
      id: 2,
      at,
      actor: by,
      action: 'update',
      changes: { dueAt: { from: null, to: new Date('2025-03-05T09:30:00Z') }, priority: { from: 'normal', to: 'high' } },
    };
    expect(describeHistoryEntry(ticket, entry, {}, 'UTC', 'en-US').changes).toEqual([
      { field: 'priority', label: 'Priority', from: 'Normal', to: 'High' },
      { field: 'dueAt', label: 'Due', from: '—', to: 'Mar 5, 2025, 09:30 UTC' },
    ]);
  });

  it('prints a transition with its label, the states by label, its comment and what it set; users by name or #id', () => {
    const entry: HistoryEntry = {
      id: 3,
      at,
      actor: by,
      action: 'transition',
      transition: { name: 'start', label: 'Start', from: 'new', to: 'open', comment: 'On it' },
      changes: { assignee: { from: 12, to: 7 } },
    };
    expect(describeHistoryEntry(ticket, entry, { assignee: { 7: 'Agent Seven' } }, 'UTC', 'en-US')).toEqual({
      verb: 'Start',
      states: { from: 'New', to: 'Open' },
      comment: 'On it',
      changes: [{ field: 'assignee', label: 'Assignee', from: '#12', to: 'Agent Seven' }],
    });
  });
});
