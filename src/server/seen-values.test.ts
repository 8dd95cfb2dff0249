import { describe, expect, it } from 'vitest';
import { testModel } from '@testing/engine/ops';
import type { RecordData } from '@/engine/ops/types';
import { changesSince, mergeStale, readSeen, seenValues, valueText } from './seen-values';

const ticket = testModel.entitiesByName.ticket!;
const contact = testModel.entitiesByName.contact!;
const created = new Date('2030-01-01T00:00:00Z');

function record(values: Record<string, RecordData[string]>): RecordData {
  return { id: 7, version: 1, createdAt: created, updatedAt: created, createdBy: 1, updatedBy: 1, ...values };
}

describe('what an edit form saw', () => {
  it('reads values as the detail page shows them, in short', () => {
    const f = contact.fieldsByName;
    expect(valueText(f.active!, true, undefined, 'UTC', 'en-US')).toBe('Yes');
    expect(valueText(f.birthday!, '2001-02-03', undefined, 'UTC', 'en-US')).toBe('Feb 3, 2001');
    expect(valueText(ticket.fieldsByName.dueAt!, new Date('2030-03-01T14:30:00Z'), undefined, 'UTC', 'en-US')).toBe(
      'Mar 1, 2030, 14:30 UTC',
    );
    expect(valueText(f.employer!, 3, { 3: 'Acme' }, 'UTC', 'en-US')).toBe('Acme');
    expect(valueText(f.employer!, 4, { 3: 'Acme' }, 'UTC', 'en-US')).toBe('#4');
    expect(valueText(f.notes!, null, undefined, 'UTC', 'en-US')).toBe('—');
    expect(valueText(ticket.fieldsByName.description!, `# Title\n\n${'word '.repeat(40)}`, undefined, 'UTC', 'en-US')).toMatch(
      /^Title word word .*…$/,
    );
  });

  it('holds only the fields the record carries (ops leave out hidden ones), and the state', () => {
    const seen = seenValues(
      ticket,
      record({ subject: 'Jam', description: null, priority: 'normal', requester: 2, state: 'new' }),
      {
        requester: { 2: 'Cust' },
      },
      'UTC',
      'en-US',
    );
    expect(seen).toEqual({
      state: ['new', 'New'],
      subject: ['Jam', 'Jam'],
      description: ['', '—'],
      priority: ['normal', 'Normal'],
      requester: ['2', 'Cust'],
    });
    expect(readSeen(JSON.stringify(seen))).toEqual(seen);
  });

  it('lists the changed fields both versions show, the state first', () => {
    const before = seenValues(ticket, record({ subject: 'Jam', priority: 'normal', state: 'new' }), {}, 'UTC', 'en-US');
    const after = seenValues(
      ticket,
      record({ subject: 'Jam', priority: 'high', state: 'open', assignee: 5 }),
      {
        assignee: { 5: 'Agent' },
      },
      'UTC',
      'en-US',
    );
    expect(changesSince(ticket, before, after)).toEqual([
      { field: 'state', label: 'State', from: 'New', to: 'Open' },
      { field: 'priority', label: 'Priority', from: 'Normal', to: 'High' },
    ]);
  });

  it("keeps what the user typed and takes the other person's change where the user typed nothing new", () => {
    const seen = { subject: ['Jam', 'Jam'], description: ['a', 'a'], priority: ['normal', 'normal'] } as const;
    const current = { subject: ['Jam!', 'Jam!'], description: ['b', 'b'], priority: ['normal', 'normal'] } as const;
    const { values, conflicts } = mergeStale(seen, current, { subject: 'Mine', description: 'a', priority: 'low', extra: 'x' });
    expect(values).toEqual({ subject: 'Mine', description: 'b', priority: 'low', extra: 'x' });
    expect([...conflicts]).toEqual(['subject']);
  });

  it('reads a posted name that objects inherit (`__proto__`, `constructor`) as a name like any other', () => {
    const seen = readSeen('{"__proto__":["x","x"],"constructor":["y","y"],"subject":["Jam","Jam"]}')!;
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
    expect(Object.keys(seen)).toEqual(['__proto__', 'constructor', 'subject']);
    const current = seenValues(ticket, record({ subject: 'Jam!' }), {}, 'UTC', 'en-US');
    expect(changesSince(ticket, seen, current).map((c) => c.field)).toEqual(['subject']);
    expect(mergeStale(seen, current, { subject: 'Jam' }).values).toEqual({ subject: 'Jam!' });
  });

  it('refuses a posted value of another shape', () => {
    for (const posted of [null, '', '{', '[]', '{"a":"b"}', '{"a":["b"]}', '{"a":["b",1]}']) expect(readSeen(posted)).toBeNull();
  });
});
