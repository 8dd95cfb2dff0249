import { ADMIN_ROLE } from '../../access/policy';
import { at, quoteList, type Issues, type Rec, type Symbols } from './context';
import { PUBLIC_ROLE } from './public';

/**
 * A record keyed by role (`roles: { customer: {...} }` on a list screen, a state or the purpose):
 * each key a declared role, the built-in `admin`, or `public` (visitors) where they may be;
 * each value an object, handed to `entry` to check.
 */
export function checkRoleKeyed(
  value: unknown,
  path: string,
  what: string,
  context: { readonly symbols: Symbols; readonly issues: Issues; readonly visitors: boolean },
  entry: (choice: Rec, place: string) => void,
): void {
  const { symbols, issues, visitors } = context;
  if (!issues.record(value, path, 'roles')) return;
  const known = new Set([ADMIN_ROLE, ...symbols.roles, ...(visitors ? [PUBLIC_ROLE] : [])]);
  for (const [role, choice] of Object.entries(value)) {
    const place = at(path, role);
    if (!known.has(role)) issues.add(place, `unknown role "${role}" (roles: ${quoteList(known)})`);
    else if (issues.record(choice, place, what)) entry(choice, place);
  }
}
