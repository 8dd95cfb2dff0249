import { rankByMatch } from './match';
import type { PaletteGroup } from './palette-groups';
import type { RecordCommands } from './record-commands';

/** What choosing an entry does: go to an address, take a transition on this page, or list the shortcuts. */
export type PaletteAction =
  | { readonly kind: 'href'; readonly href: string }
  | { readonly kind: 'transition'; readonly name: string }
  | { readonly kind: 'shortcuts' };

export interface PaletteItem {
  readonly key: string;
  readonly label: string;
  /** A quieter second text: a record's number, where a place lives. */
  readonly detail?: string;
  readonly action: PaletteAction;
}

export interface PaletteSection {
  readonly key: string;
  readonly label: string;
  readonly items: readonly PaletteItem[];
}

/** A place of the navigation (as src/server/navigation.ts lists it for the user). */
export interface PalettePlace {
  readonly href: string;
  readonly label: string;
  readonly children?: readonly PalettePlace[];
}

/** Records the server found for a query, by entity. */
export interface FoundRecords {
  readonly query: string;
  readonly groups: readonly PaletteGroup[];
}

/**
 * The palette's entries for what is typed, in sections: the current record's actions, the
 * places the user may go (the navigation, its saved views under their entity), the records the
 * server found (best first, each entity's ending with its list searched for the same words), and
 * help. Places and actions are matched here; records were matched by the server's search and are
 * shown only for the query they answer.
 */
export function paletteSections({
  query,
  record,
  places,
  found,
}: {
  query: string;
  record: RecordCommands | null;
  places: readonly PalettePlace[];
  found: FoundRecords | null;
}): PaletteSection[] {
  const sections: PaletteSection[] = [];
  if (record) {
    const actions = record.commands.map((command, index): PaletteItem => ({
      key: `record-${index}`,
      label: command.label,
      action: command.kind === 'link' ? { kind: 'href', href: command.href } : { kind: 'transition', name: command.name },
    }));
    sections.push({ key: 'record', label: record.title, items: rankByMatch(actions, (item) => item.label, query) });
  }
  const goTo: PaletteItem[] = [
    { key: 'place-home', label: 'Home', action: { kind: 'href', href: '/' } },
    ...places.flatMap((place) => [
      { key: `place-${place.href}`, label: place.label, action: { kind: 'href', href: place.href } } satisfies PaletteItem,
      ...(place.children ?? []).map((child): PaletteItem => ({
        key: `place-${child.href}`,
        label: child.label,
        detail: place.label,
        action: { kind: 'href', href: child.href },
      })),
    ]),
    { key: 'place-account', label: 'Your account', action: { kind: 'href', href: '/account' } },
  ];
  sections.push({
    key: 'places',
    label: 'Go to',
    items: rankByMatch(goTo, (item) => (item.detail ? `${item.label} ${item.detail}` : item.label), query),
  });
  if (found && found.query === query.trim()) {
    for (const group of found.groups) {
      sections.push({
        key: `records-${group.entity}`,
        label: group.label,
        items: [
          ...group.records.map((r): PaletteItem => ({
            key: `records-${group.entity}-${r.id}`,
            label: r.title,
            detail: r.state ? `#${r.id} · ${r.state}` : `#${r.id}`,
            action: { kind: 'href', href: r.href },
          })),
          ...(group.allHref
            ? [
                {
                  key: `records-${group.entity}-all`,
                  label: `All results for “${found.query}”`,
                  action: { kind: 'href', href: group.allHref },
                } satisfies PaletteItem,
              ]
            : []),
        ],
      });
    }
  }
  const help: PaletteItem[] = [{ key: 'help-shortcuts', label: 'Keyboard shortcuts', action: { kind: 'shortcuts' } }];
  sections.push({ key: 'help', label: 'Help', items: rankByMatch(help, (item) => item.label, query) });
  return sections.filter((section) => section.items.length > 0);
}
