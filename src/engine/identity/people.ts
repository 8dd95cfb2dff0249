import { sql, type Expression, type SqlBool } from 'kysely';
import type { AppModel, FieldModel } from '../spec/model';
import { indefinite } from '../spec/naming';
import type { Actor } from '../ground/actor';
import { isAdmin } from '../access/policy';

/**
 * Who may see other people's email addresses: those who may manage users (the administrators,
 * who see them on /admin/users anyway). Everyone else is shown names only, in pickers, titles,
 * history and exports: the one place that decides it.
 */
export function mayManageUsers(actor: Pick<Actor, 'roles'>): boolean {
  return isAdmin(actor);
}

/** A user as a picker shows them to `actor`: the name, with the email for those who manage users. */
export function personChoiceTitle(actor: Pick<Actor, 'roles'>, user: { readonly name: string; readonly email: string }): string {
  return mayManageUsers(actor) ? `${user.name} <${user.email}>` : user.name;
}

/** Users holding one of the field's `roles` (no condition for a field without them), on nf_user's `roles` column. */
export function holdsFieldRole(field: FieldModel): Expression<SqlBool> | null {
  if (!field.holderRoles) return null;
  return sql<SqlBool>`roles && ${sql.val([...field.holderRoles])}::text[]`;
}

/** "Assignee must be an agent or an administrator.", from the roles' labels. */
export function holderRolesMessage(model: Pick<AppModel, 'roles'>, field: FieldModel): string {
  const labels = (field.holderRoles ?? []).map((role) => indefinite(model.roles[role]?.label ?? (isAdmin(role) ? 'Administrator' : role)));
  const list = labels.length <= 1 ? labels.join('') : `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
  return `${field.label} must be ${list}.`;
}
