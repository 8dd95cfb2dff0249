import type { RecordData } from '@/engine/ops/types';

/** Who a record's conversation is with (a ticket's requester), and their other records still in progress. */
export interface Counterpart {
  /** The user field naming them ("requester"). */
  readonly field: string;
  readonly label: string;
  readonly userId: number;
  readonly name: string;
  /** Whether the conversation is with the viewer themselves (a requester on their own ticket). */
  readonly self: boolean;
  /** Up to five of their other records not in a final state, most recently changed first. */
  readonly others: readonly RecordData[];
  /** How many such records there are in all (counted up to a cap). */
  readonly count: { readonly count: number; readonly more: boolean };
}
