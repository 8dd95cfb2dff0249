import { at, quoteList, type Issues, type Rec, type Symbols } from './context';
import { refusePublicRole } from './public';
import { ADMIN_ROLE } from '../../access/policy';

const DOCUMENTATION_KEYS = ['roles'];

/** Checks `screens.documentation`: the roles that may read /spec and /api/docs, each a known one. */
export function checkDocumentation(screens: Rec, symbols: Symbols, issues: Issues): void {
  const documentation = screens.documentation;
  const path = 'screens.documentation';
  if (documentation === undefined || !issues.record(documentation, path, 'documentation')) return;
  issues.unknownKeys(documentation, DOCUMENTATION_KEYS, path, 'documentation');
  const rolesPath = at(path, 'roles');
  if (documentation.roles === undefined) {
    issues.add(rolesPath, 'is required: the roles that may read /spec and /api/docs, e.g. ["admin"]');
    return;
  }
  const names = issues.stringList(documentation.roles, rolesPath);
  if (Array.isArray(documentation.roles) && documentation.roles.length === 0) {
    issues.add(rolesPath, 'no role could read the documentation; name at least one, or leave documentation out for administrators only');
  }
  names.forEach((name, index) => {
    if (refusePublicRole(name, at(rolesPath, index), issues, 'read /spec and /api/docs, which are for signed-in users')) return;
    if (!symbols.roles.has(name) && name !== ADMIN_ROLE)
      issues.add(at(rolesPath, index), `unknown role "${name}" (roles: ${quoteList(new Set([ADMIN_ROLE, ...symbols.roles]))})`);
  });
  issues.duplicates(names, rolesPath, 'role');
}
