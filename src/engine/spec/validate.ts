import { checkNotifications } from './validate/notifications';
import type { SpecIssue } from './spec-error';
import type { AppSpec } from './types';
import { checkPermissions, checkRoles, checkRules } from './validate/access';
import { checkCalendar } from './validate/calendar';
import { checkCalls, checkConstantRefs, checkConstants, checkErrors } from './validate/catalogue';
import { describeValue, isRecord, isString, Issues } from './validate/context';
import { checkEntities } from './validate/entities';
import { checkGrantUsability } from './validate/grant-usability';
import { checkPurpose, checkScreens } from './validate/screens';
import { collectSymbols } from './validate/symbols';
import { checkWorkflows } from './validate/workflows';
import { checkUsers } from './validate/users';
import { checkWrittenBy } from './validate/written-by';
import { checkWebhooks } from './validate/webhooks';

const TOP_LEVEL_KEYS: readonly (keyof AppSpec)[] = [
  'name',
  'purpose',
  'screens',
  'entities',
  'workflows',
  'rules',
  'users',
  'roles',
  'permissions',
  'calls',
  'errors',
  'constants',
  'calendar',
  'webhooks',
  'notifications',
  'watch',
];
const APP_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Returns every problem found in a spec, each with a dotted path into it. The spec may come
 * from a JavaScript file, so it is read as untrusted data: every shape is checked at run time.
 * An empty list means `buildModel` can rely on the spec's types.
 */
export function validateSpec(spec: AppSpec): SpecIssue[] {
  const raw: unknown = spec;
  const issues = new Issues();
  if (!isRecord(raw)) {
    issues.add('(spec)', `a spec must be an object, got ${describeValue(raw)}`);
    return issues.list;
  }
  issues.unknownKeys(raw, TOP_LEVEL_KEYS, '', 'the spec');
  checkName(raw.name, issues);
  const symbols = collectSymbols(raw);
  checkPurpose(raw, symbols, issues);
  checkScreens(raw, symbols, issues);
  checkEntities(raw, symbols, issues);
  checkWorkflows(raw, symbols, issues);
  checkRules(raw, symbols, issues);
  checkUsers(raw, symbols, issues);
  checkRoles(raw, issues);
  checkPermissions(raw, symbols, issues);
  checkGrantUsability(raw, symbols, issues);
  checkCalls(raw, symbols, issues);
  checkErrors(raw, issues);
  checkConstants(raw, issues);
  checkCalendar(raw, issues);
  checkConstantRefs(raw, symbols, issues);
  checkWrittenBy(raw, issues);
  checkWebhooks(raw, symbols, issues);
  checkNotifications(raw, symbols, issues);
  return issues.list;
}

function checkName(name: unknown, issues: Issues): void {
  if (name === undefined) issues.add('name', 'is required: the machine name of the application, e.g. "helpdesk"');
  else if (!isString(name) || !APP_NAME.test(name)) {
    issues.add('name', `must be lower-case letters, digits and dashes, e.g. "helpdesk", got ${describeValue(name)}`);
  }
}
