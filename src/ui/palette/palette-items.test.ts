import { describe, expect, it } from 'vitest';
import { paletteSections, type PalettePlace } from './palette-items';
import type { RecordCommands } from './record-commands';

const places: PalettePlace[] = [
  { href: '/queue', label: 'My queue' },
  { href: '/tickets', label: 'Tickets', children: [{ href: '/tickets?view=3', label: 'Urgent ones' }] },
  { href: '/spec', label: 'Spec' },
];
const record: RecordCommands = {
  title: 'Ticket #12',
  commands: [
    { kind: 'link', label: 'Edit', href: '/tickets/12/edit', shortcut: 'edit' },
    { kind: 'transition', label: 'Resolve', name: 'resolve' },
  ],
};
const labels = (sections: ReturnType<typeof paletteSections>) => sections.map((s) => [s.label, s.items.map((i) => i.label)]);

describe('paletteSections', () => {
  it('offers the record first, then every place, then help, when nothing is typed', () => {
    expect(labels(paletteSections({ query: '', record, places, found: null }))).toEqual([
      ['Ticket #12', ['Edit', 'Resolve']],
      ['Go to', ['Home', 'My queue', 'Tickets', 'Urgent ones', 'Spec', 'Your account']],
      ['Help', ['Keyboard shortcuts']],
    ]);
  });

  it('keeps what matches and drops empty sections', () => {
    expect(labels(paletteSections({ query: 'res', record, places, found: null }))).toEqual([['Ticket #12', ['Resolve']]]);
    expect(labels(paletteSections({ query: 'tick', record: null, places, found: null }))).toEqual([['Go to', ['Tickets', 'Urgent ones']]]);
  });

  it('maps actions: links and saved views go somewhere, transitions are taken on the page', () => {
    const [mine, goTo] = paletteSections({ query: '', record, places, found: null });
    expect(mine!.items.map((i) => i.action)).toEqual([
      { kind: 'href', href: '/tickets/12/edit' },
      { kind: 'transition', name: 'resolve' },
    ]);
    expect(goTo!.items.find((i) => i.label === 'Urgent ones')).toMatchObject({
      detail: 'Tickets',
      action: { kind: 'href', href: '/tickets?view=3' },
    });
  });

  it('shows the records found for the query typed, not for an older one', () => {
    const found = {
      query: 'printer',
      groups: [
        {
          entity: 'ticket',
          label: 'Tickets',
          records: [
            { id: 7, title: 'Printer jammed', href: '/tickets/7' },
            { id: 8, title: 'Printer toner', href: '/tickets/8', state: 'Pending' },
          ],
        },
      ],
    };
    const now = paletteSections({ query: ' printer ', record: null, places, found });
    expect(labels(now)).toEqual([['Tickets', ['Printer jammed', 'Printer toner']]]);
    expect(now[0]!.items[0]).toMatchObject({ detail: '#7', action: { kind: 'href', href: '/tickets/7' } });
    // A record's state follows its number.
    expect(now[0]!.items[1]).toMatchObject({ detail: '#8 · Pending' });
    expect(paletteSections({ query: 'printers', record: null, places, found })).toEqual([]);
  });

  it('ends a group found by words with its list searched for them, chosen like any record', () => {
    const found = {
      query: 'toner',
      groups: [
        {
          entity: 'ticket',
          label: 'Tickets',
          records: [{ id: 8, title: 'Printer toner', href: '/tickets/8' }],
          allHref: '/tickets?q=toner',
        },
        { entity: 'contact', label: 'Contacts', records: [{ id: 3, title: 'Tony', href: '/contacts/3' }] },
      ],
    };
    const [tickets, contacts] = paletteSections({ query: 'toner ', record: null, places, found });
    expect(tickets!.items.map((i) => [i.label, i.action])).toEqual([
      ['Printer toner', { kind: 'href', href: '/tickets/8' }],
      ['All results for “toner”', { kind: 'href', href: '/tickets?q=toner' }],
    ]);
    // A group found by number only has no list to offer.
    expect(contacts!.items.map((i) => i.label)).toEqual(['Tony']);
  });
});
