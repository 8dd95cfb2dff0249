import type { AppModel, EntityModel } from '../model';
import type { NotificationModel, NotificationOn, RecipientModel } from '../notifications';
import type { DocBlock } from '../document';
import { autoWhenText } from './auto';
import { code } from './text';
import { compiledConditionText } from '../../condition/text';

/*
 * The spec's notifications in plain English on /spec and in `describe` (point 7: what the
 * product tells people). Says what the dispatcher does (src/engine/notify): who is left out,
 * how a field the recipient may not read reads, and when e-mail is sent.
 */

function onText(on: NotificationOn, entity: EntityModel): string {
  switch (on.kind) {
    case 'create':
      return `a ${entity.label.toLowerCase()} is created`;
    case 'update':
      return `${on.fields.map(code).join(' or ')} of a ${entity.label.toLowerCase()} changes (or is set when it is created)`;
    case 'transition':
      return `a ${entity.label.toLowerCase()} takes ${on.transitions.map((t) => entity.workflow?.transitions.find((x) => x.name === t)?.label ?? t).join(' or ')}`;
    case 'time':
      return `${autoWhenText(on.time)} of a ${entity.label.toLowerCase()} (once per record and value of ${code(on.time.field)}${
        on.time.side === 'before' ? `, and not once ${code(on.time.field)} has passed` : ''
      })`;
  }
}

function recipientText(to: RecipientModel): string {
  if (to.kind === 'role') return `the users of role ${code(to.role)}`;
  if (to.kind === 'watchers') return to.via ? `the watchers of its ${code(to.via)}` : "the record's watchers";
  return `the user(s) in ${code(to.path)}`;
}

/** One notification in a sentence: when, who, what. */
export function notificationText(model: AppModel, notification: NotificationModel): string {
  const entity = model.entitiesByName[notification.entity]!;
  const when = notification.when ? `, if ${compiledConditionText(notification.when, entity)}` : '';
  const channels = notification.channels.map((c) => (c === 'inApp' ? 'in the app' : 'by e-mail')).join(' and ');
  const text = notification.text ? ` and ${code(notification.text)}` : '';
  return (
    `${notification.label} (${code(notification.name)}): when ${onText(notification.on, entity)}${when}, ` +
    `${notification.to.map(recipientText).join(', ')} read ${code(notification.title)}${text} ${channels}.`
  );
}

export function notificationBlocks(model: AppModel): DocBlock[] {
  if (model.notifications.length === 0) return [];
  const watch = Object.entries(model.watch).map(
    ([entity, roles]) =>
      `${model.entitiesByName[entity]?.pluralLabel ?? entity}: users of ${roles.map(code).join(', ')} may watch the records they may read.`,
  );
  return [
    { kind: 'heading', text: 'Notifications' },
    { kind: 'list', items: model.notifications.map((n) => notificationText(model, n)) },
    ...(watch.length > 0 ? [{ kind: 'list' as const, items: watch }] : []),
    {
      kind: 'paragraph',
      text:
        'The user whose change it is is not told of it. A recipient is told only if their account is enabled and they may read the record when it is sent; ' +
        'a placeholder for a field they may not read reads "(hidden)", in the app and by e-mail alike. Each user chooses per kind on /account: in the app on or off, ' +
        'e-mail for each, a daily digest, or off; and may mute a record, or watch one where watching is allowed. ' +
        'E-mail is sent only when the server has a mailer configured (SMTP settings in the environment), retried later when the mail server refuses it; ' +
        `a daily digest is one e-mail a day of the day before, the day as the clock reads it in ${model.timeZone}. ` +
        'Each e-mail carries a one-click unsubscribe link (`/unsubscribe/<token>`: a page to confirm, ' +
        'and the List-Unsubscribe header), which turns that kind of e-mail off (every kind, from a digest).',
    },
  ];
}
