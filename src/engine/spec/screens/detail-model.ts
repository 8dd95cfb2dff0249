// The detail pages' part of the built model, as types only: spec/model.ts names them without
// importing their builder (details.ts), which itself reads the model.

/**
 * One section of related records on a detail page: the records of `entity` whose reference
 * `via` points at the record shown, with every default filled in.
 */
export interface RelatedModel {
  /** The key under `related` ("comment", or "comment.ticket" when an entity has several references here). */
  readonly key: string;
  readonly entity: string;
  readonly via: string;
  /** The search parameter holding this section's cursor, unique on the page. */
  readonly param: string;
  readonly label: string;
  readonly display: 'table' | 'thread';
  /** A thread item's text: the first markdown field of the entity, else its first text field (null for a table). */
  readonly body: string | null;
  /** Table columns (never the reference itself: every row has the record shown). */
  readonly columns: readonly string[];
  /** A column, "-" first for descending. */
  readonly sort: string;
  readonly pageSize: number;
  readonly add: boolean;
  readonly addWhenFinal: boolean;
  readonly badges: readonly string[];
  /** By a user field of the record shown or a role: the transitions a reply by them takes, the first available. */
  readonly transitions: Readonly<Record<string, readonly string[]>>;
  /** Transitions a replier may choose to take with the reply. */
  readonly replyWith: readonly string[];
}

/** A detail page's sections of related records, in order. */
export interface DetailModel {
  readonly related: readonly RelatedModel[];
  /** The first transition a reply takes for each replier (`transitions` of a section): not offered as buttons of their own. */
  readonly replyTransitions: readonly string[];
}
