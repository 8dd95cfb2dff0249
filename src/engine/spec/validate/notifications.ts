import { ADMIN_ROLE } from '../../ground/admin-role';
import { AUTO_FROM_SYSTEM, DURATION_UNITS } from '../auto';
import { NOTIFICATION_CHANNELS, placeholdersOf } from '../notifications';
import { checkDuration } from './auto';
import { checkCondition } from './conditions';
import {
  at,
  describeValue,
  IDENTIFIER,
  IDENTIFIER_RULE,
  isNonEmptyString,
  isRecord,
  isString,
  quoteList,
  type EntityInfo,
  type Issues,
  type Rec,
  type Symbols,
} from './context';

/*
 * `notifications` and `watch` (src/engine/notify): every name they use must exist, and every
 * recipient path must end on a user or users field, so that the dispatcher never meets a name it
 * cannot resolve.
 */

const NOTIFICATION_KEYS = ['label', 'entity', 'on', 'when', 'to', 'title', 'text', 'channels'];
const TRIGGERS = ['create', 'update', 'transition', 'after', 'before'];
const SYSTEM_PLACEHOLDERS = ['id', 'title', 'createdAt', 'updatedAt'];

const isUserType = (field: Rec | undefined) => field?.type === 'user' || field?.type === 'users';

export function checkNotifications(spec: Rec, symbols: Symbols, issues: Issues): void {
  checkWatch(spec.watch, symbols, issues);
  const notifications = spec.notifications;
  if (notifications === undefined) return;
  if (!issues.record(notifications, 'notifications', 'notifications (by kind name)')) return;
  for (const [name, notification] of Object.entries(notifications)) {
    const path = at('notifications', name);
    if (!IDENTIFIER.test(name)) issues.add(path, `a notification's name must be ${IDENTIFIER_RULE}`);
    if (!issues.record(notification, path, 'a notification ({ entity, on, to, title })')) continue;
    issues.unknownKeys(notification, NOTIFICATION_KEYS, path, 'a notification');
    issues.optionalString(notification, 'label', path);
    const entity = isString(notification.entity) ? symbols.entities.get(notification.entity) : undefined;
    if (!entity) {
      issues.add(
        at(path, 'entity'),
        `unknown entity ${describeValue(notification.entity)} (entities: ${quoteList(symbols.entities.keys())})`,
      );
      continue;
    }
    checkTrigger(notification.on, at(path, 'on'), entity, symbols, issues);
    if (notification.when !== undefined) {
      // Evaluated in memory on the record as written, in the write's transaction: its own fields only.
      checkCondition(notification.when, at(path, 'when'), entity, symbols, issues, { paths: false });
    }
    checkRecipients(notification.to, at(path, 'to'), entity, symbols, spec, issues);
    issues.requiredText(notification, 'title', path);
    issues.optionalString(notification, 'text', path);
    for (const key of ['title', 'text'] as const) {
      if (isString(notification[key])) checkPlaceholders(notification[key], at(path, key), entity, symbols, issues);
    }
    if (notification.channels !== undefined) {
      const channels = issues.stringList(notification.channels, at(path, 'channels'));
      if (Array.isArray(notification.channels) && notification.channels.length === 0)
        issues.add(at(path, 'channels'), 'needs at least one channel');
      for (const channel of channels) {
        if (!(NOTIFICATION_CHANNELS as readonly string[]).includes(channel)) {
          issues.add(at(path, 'channels'), `unknown channel "${channel}" (channels: ${quoteList(NOTIFICATION_CHANNELS)})`);
        }
      }
    }
  }
}

function checkTrigger(on: unknown, path: string, entity: EntityInfo, symbols: Symbols, issues: Issues): void {
  const shape = '{ create: true }, { update: [fields] }, { transition }, { before | after: field, hours | … }';
  if (!issues.record(on, path, `"on" (${shape})`)) return;
  issues.unknownKeys(on, [...TRIGGERS, ...DURATION_UNITS], path, 'a notification\'s "on"');
  const given = TRIGGERS.filter((key) => on[key] !== undefined);
  if (given.length !== 1) {
    issues.add(path, `needs exactly one of ${quoteList(TRIGGERS)}, got ${given.length === 0 ? 'none' : quoteList(given)}`);
    return;
  }
  const trigger = given[0]!;
  if (trigger !== 'after' && trigger !== 'before' && DURATION_UNITS.some((unit) => on[unit] !== undefined)) {
    issues.add(path, `a duration goes with "before" or "after" only`);
  }
  if (trigger === 'create' && on.create !== true) issues.add(at(path, 'create'), `must be true, got ${describeValue(on.create)}`);
  if (trigger === 'update') {
    const fields = issues.stringList(on.update, at(path, 'update'));
    if (Array.isArray(on.update) && on.update.length === 0) issues.add(at(path, 'update'), 'names at least one field');
    for (const field of fields) {
      if (!entity.fields.has(field))
        issues.add(at(path, 'update'), `unknown field "${field}" of ${entity.name} (fields: ${quoteList(entity.fields.keys())})`);
    }
  }
  if (trigger === 'transition') {
    const names = isString(on.transition) ? [on.transition] : issues.stringList(on.transition, at(path, 'transition'));
    const known = entity.workflow?.transitions ?? [];
    for (const name of names) {
      if (!known.includes(name)) {
        issues.add(
          at(path, 'transition'),
          entity.workflow
            ? `unknown transition "${name}" of ${entity.name} (transitions: ${quoteList(known)})`
            : `${entity.name} has no workflow`,
        );
      }
    }
  }
  if (trigger === 'after' || trigger === 'before') {
    const times = [
      ...AUTO_FROM_SYSTEM,
      ...[...entity.fields].filter(([, f]) => f.type === 'datetime' || f.type === 'date').map(([name]) => name),
    ];
    if (!isString(on[trigger]) || !times.includes(on[trigger])) {
      issues.add(at(path, trigger), `${describeValue(on[trigger])} is not a date or datetime of ${entity.name} (${quoteList(times)})`);
    }
    checkDuration(on, path, symbols, issues);
  }
}

function checkRecipients(to: unknown, path: string, entity: EntityInfo, symbols: Symbols, spec: Rec, issues: Issues): void {
  if (!Array.isArray(to) || to.length === 0) {
    issues.add(path, `must be a non-empty list of recipients (a user field path, { role }, or "watchers"), got ${describeValue(to)}`);
    return;
  }
  to.forEach((recipient: unknown, index) => {
    const where = at(path, index);
    if (isRecord(recipient)) {
      issues.unknownKeys(recipient, ['role'], where, 'a recipient');
      const role = recipient.role;
      if (!isString(role) || (!symbols.roles.has(role) && role !== ADMIN_ROLE)) {
        issues.add(at(where, 'role'), `unknown role ${describeValue(role)} (roles: ${quoteList([ADMIN_ROLE, ...symbols.roles])})`);
      }
      return;
    }
    if (!isNonEmptyString(recipient)) {
      issues.add(where, `must be a user field path, { role } or "watchers", got ${describeValue(recipient)}`);
      return;
    }
    if (recipient === 'watchers') {
      const watch = isRecord(spec.watch) ? spec.watch[entity.name] : undefined;
      if (watch === undefined) issues.add(where, `"watchers" needs watch.${entity.name}: the roles whose users may watch a ${entity.name}`);
      return;
    }
    const userFields = [...entity.fields].filter(([, f]) => isUserType(f)).map(([name]) => name);
    const [head, tail, ...rest] = recipient.split('.');
    const field = entity.fields.get(head!);
    if (tail === 'watchers' && rest.length === 0 && field?.type === 'reference' && isString(field.to)) {
      const watch = isRecord(spec.watch) ? spec.watch[field.to] : undefined;
      if (watch === undefined) issues.add(where, `"${recipient}" needs watch.${field.to}: the roles whose users may watch a ${field.to}`);
    } else if (rest.length > 0 || !field) {
      issues.add(
        where,
        `"${recipient}" is not a user field of ${entity.name} (${quoteList(userFields)}) nor a reference's (e.g. "ticket.requester")`,
      );
    } else if (tail === undefined) {
      if (!isUserType(field))
        issues.add(where, `"${head}" is a ${describeValue(field.type)} field, not a user or users field of ${entity.name}`);
    } else {
      const target = field.type === 'reference' && isString(field.to) ? symbols.entities.get(field.to) : undefined;
      if (!target) issues.add(where, `"${head}" is not a reference field of ${entity.name}: "${recipient}" cannot be followed`);
      else if (!isUserType(target.fields.get(tail))) {
        const targetUsers = [...target.fields].filter(([, f]) => isUserType(f)).map(([name]) => name);
        issues.add(where, `"${tail}" is not a user or users field of ${target.name} (${quoteList(targetUsers)})`);
      }
    }
  });
}

function checkPlaceholders(text: string, path: string, entity: EntityInfo, symbols: Symbols, issues: Issues): void {
  for (const name of placeholdersOf(text)) {
    const [head, tail] = name.split('.');
    const field = entity.fields.get(head!);
    if (tail === undefined) {
      if (!field && !SYSTEM_PLACEHOLDERS.includes(head!)) {
        issues.add(
          path,
          `unknown placeholder {${name}}: not a field of ${entity.name} (${quoteList([...SYSTEM_PLACEHOLDERS, ...entity.fields.keys()])})`,
        );
      }
      continue;
    }
    const target = field?.type === 'reference' && isString(field.to) ? symbols.entities.get(field.to) : undefined;
    if (!target) issues.add(path, `unknown placeholder {${name}}: "${head}" is not a reference field of ${entity.name}`);
    else if (!target.fields.has(tail) && !SYSTEM_PLACEHOLDERS.includes(tail)) {
      issues.add(path, `unknown placeholder {${name}}: "${tail}" is not a field of ${target.name} (${quoteList(target.fields.keys())})`);
    }
  }
}

function checkWatch(watch: unknown, symbols: Symbols, issues: Issues): void {
  if (watch === undefined) return;
  if (!issues.record(watch, 'watch', 'watch (by entity, the roles whose users may watch its records)')) return;
  for (const [name, roles] of Object.entries(watch)) {
    const path = at('watch', name);
    if (!symbols.entities.has(name)) issues.add(path, `unknown entity "${name}" (entities: ${quoteList(symbols.entities.keys())})`);
    for (const role of issues.stringList(roles, path)) {
      if (!symbols.roles.has(role) && role !== ADMIN_ROLE)
        issues.add(path, `unknown role "${role}" (roles: ${quoteList([ADMIN_ROLE, ...symbols.roles])})`);
    }
  }
}
