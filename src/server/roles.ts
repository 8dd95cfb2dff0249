import 'server-only';
import { PUBLIC_ROLE } from '@/engine/access/visitor';
import type { AppModel } from '@/engine/spec/model';
import type { RoleOption } from '@/ui/forms/account-state';
import { ADMIN_ROLE, isAdmin } from '@/engine/access/policy';

/** The roles a user may be given: the built-in admin (always known) first, then the spec's, with their labels. */
export function roleOptions(model: AppModel): RoleOption[] {
  // `public` is what visitors who are not signed in hold; no user is given it.
  const names = [ADMIN_ROLE, ...Object.keys(model.roles).filter((r) => !isAdmin(r) && r !== PUBLIC_ROLE)];
  return names.map((name) => {
    const spec = model.roles[name];
    const label = spec?.label ?? (isAdmin(name) ? 'Administrator' : name);
    return spec?.description ? { name, label, description: spec.description } : { name, label };
  });
}
