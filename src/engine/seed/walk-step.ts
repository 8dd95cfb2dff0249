import type { TransitionModel } from '../spec/model';

/** A record's values by field name, with its state and createdAt. */
export type Values = Record<string, unknown>;

export interface WalkStep {
  readonly transition: TransitionModel;
  readonly from: string;
  /** The state entered (chosen by the data when the transition has several targets). */
  readonly to: string;
  readonly at: Date;
  readonly actorId: number | null;
  readonly comment: string | null;
  readonly before: Values;
  readonly after: Values;
  /** Taken by the scheduler (an automatic transition), not by a user. */
  readonly automatic?: true;
}
