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

/** The form adding a related record in place: its fields (never the reference, which the page sets). */
export interface RelatedAddForm {
  readonly fields: readonly FormFieldDescriptor[];
  readonly values: Readonly<Record<string, string>>;
  readonly checks: FormChecks;
  readonly replyOptions: readonly ReplyOption[];
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
