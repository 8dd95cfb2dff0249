import type { Actor } from '../ground/actor';

/**
 * The state of a list that a saved view keeps: everything its address holds but the page cursor.
 * Field names, not address parameters: the doors turn an address into this and back.
 */
export interface ListState {
  /** Filter values by field name; only non-empty ones. */
  readonly filters: Readonly<Record<string, string>>;
  readonly q: string;
  /** "field", "-field" or several comma-separated; '' for the list's default order. */
  readonly sort: string;
  /** The columns shown, in order; empty for the list's default columns. */
  readonly columns: readonly string[];
  /** How a list that has a board is shown ("table" or "board"); absent for its default. */
  readonly layout?: ListLayout;
}

export type ListLayout = 'table' | 'board';

/** A saved view as one viewer sees it. */
export interface SavedView {
  readonly id: number;
  readonly entity: string;
  readonly name: string;
  /** As saved; `viewableState` gives what this viewer may open of it. */
  readonly state: ListState;
  readonly ownerId: number;
  /** Roles whose members see the view (read-only for them); set by administrators only. */
  readonly sharedWith: readonly string[];
  /** Whether the viewer owns it (may rename, change or delete it). */
  readonly mine: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NewSavedView {
  readonly entity: string;
  readonly name: string;
  readonly state: ListState;
}

/**
 * Saved views of lists: a user's own, and those an administrator shared with one of the user's
 * roles, for entities the user may list. Refusals are catalogue errors: NOT_FOUND for a view the
 * actor cannot see, FORBIDDEN for a change only its owner (or an administrator, for sharing) may
 * make, VALIDATION_FAILED (field `name`) for an empty, too long or already used name.
 */
export interface SavedViews {
  /** The views the actor sees, of one entity or of all, by entity then name. */
  list(actor: Actor, entity?: string): Promise<SavedView[]>;
  get(actor: Actor, id: number): Promise<SavedView>;
  create(actor: Actor, view: NewSavedView): Promise<SavedView>;
  rename(actor: Actor, id: number, name: string): Promise<SavedView>;
  /** Keeps the view's name and puts this list state in it. */
  replaceState(actor: Actor, id: number, state: ListState): Promise<SavedView>;
  /** Administrators only, on their own views: the roles that see it (empty: nobody else). */
  share(actor: Actor, id: number, roles: readonly string[]): Promise<SavedView>;
  delete(actor: Actor, id: number): Promise<void>;
}
