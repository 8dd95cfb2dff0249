import type { ListCount, ListPage } from '@/engine/ops/types';
import type { EntityModel } from '@/engine/spec/model';
import type { RelatedModel } from '@/engine/spec/screens/detail-model';
import type { FormFieldDescriptor } from '../forms/state';
import type { FormChecks } from '../forms/validation';
import type { ShownFiles } from '../files/shown-file';

/** A transition a reply may take, as the reply box offers it ("Reply and wait for customer"). */
export interface ReplyOption {
  readonly name: string;
  readonly label: string;
}

/**
 * A thread's second way of writing, where its items carry a marker the viewer may set (an internal
 * note): the reply box offers two modes instead of a checkbox one may forget to tick.
 */
export interface ReplyMode {
  /** The boolean field the mode sets. */
  readonly field: string;
  /** What an item in this mode is called ("Internal note"). */
  readonly label: string;
  /** Who reads it, from the field's help ("Visible to agents only"), shown while writing one. */
  readonly note: string | null;
}

/** The form adding a related record in place: its fields (never the reference, which the page sets). */
export interface RelatedAddForm {
  readonly fields: readonly FormFieldDescriptor[];
  /** The marker chosen as a mode rather than a field; null when there is none. */
  readonly mode: ReplyMode | null;
  readonly values: Readonly<Record<string, string>>;
  readonly checks: FormChecks;
  readonly replyOptions: readonly ReplyOption[];
  /** Said above the box: a reply that will not take the transition it would take, and why. */
  readonly notice: string | null;
}

/** One section of related records as this viewer sees it. */
export interface RelatedSectionView {
  readonly section: RelatedModel;
  readonly entity: EntityModel;
  /** Declared fields of the related entity the viewer may read. */
  readonly readable: readonly string[];
  readonly page: ListPage;
  /** The files of a thread's items (none for a table of records, which names them only). */
  readonly files: ShownFiles;
  readonly count: ListCount;
  /** Links to this section's next and first pages, keeping the page's other cursors. */
  readonly nextHref: string | null;
  readonly firstHref: string | null;
  /** Null when the viewer may not add one here (no create grant, or the record is final). */
  readonly add: RelatedAddForm | null;
}
