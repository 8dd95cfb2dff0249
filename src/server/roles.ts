import 'server-only';
import { PUBLIC_ROLE } from '@/engine/access/visitor';
import type { AppModel } from '@/engine/spec/model';
import type { RoleOption } from '@/ui/forms/account-state';

/** The roles a user may be given: 'admin' (always known) first, then the spec's, with their labels. */
export function roleOptions(model: AppModel): RoleOption[] {
  // `public` is what visitors who are not signed in hold; no user is given it.
  const names = ['admin', ...Object.keys(model.roles).filter((r) => r !== 'admin' && r !== PUBLIC_ROLE)];
  return names.map((name) => {
    const spec = model.roles[name];
    const label = spec?.label ?? (name === 'admin' ? 'Administrator' : name);
    return spec?.description ? { name, label, description: spec.description } : { name, label };
  });
}
