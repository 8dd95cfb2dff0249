/** A record the palette found: where to open it and what to call it. */
export interface PaletteRecord {
  readonly id: number;
  readonly title: string;
  readonly href: string;
  /** The label of its state, for a record with a workflow ("Open"). */
  readonly state?: string;
}

/** The records found in one entity, under its plural label. */
export interface PaletteGroup {
  readonly entity: string;
  readonly label: string;
  readonly records: readonly PaletteRecord[];
  /** The entity's list searched for the same words: every result, where the records came from its search. */
  readonly allHref?: string;
}

/** The palette's record search (a server action the page passes down): the groups found for what was typed. */
export type SearchRecords = (query: string) => Promise<PaletteGroup[]>;
