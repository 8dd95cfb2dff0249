// The ground of the engine: imported by every layer (the spec's types included), it imports
// nothing of the engine but the ground, so that no layer climbs back up through it.
import type { RecordValue } from './record-value';

/**
 * Who is acting: a signed-in user (page, server action or API token), or a visitor who is not
 * signed in (`visitor: true`, userId 0, the one role `public`: see engine/access/visitor.ts).
 */
export interface Actor {
  /** The user's id; 0 for a visitor, who has no account (nothing is written as by user 0). */
  readonly userId: number;
  readonly email: string;
  readonly name: string;
  readonly roles: readonly string[];
  /** The values of the spec's user fields (`users.fields`) for this user, by field name. */
  readonly fields?: Readonly<Record<string, RecordValue>>;
  /** True for a visitor who is not signed in. */
  readonly visitor?: true;
  /** True for the engine acting by itself (the scheduler): no account, nothing written as by a user. */
  readonly system?: true;
}
