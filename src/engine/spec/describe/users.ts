import { plainDefault } from '../field-default';
import type { DocBlock } from '../document';
import type { AppModel, FieldModel } from '../model';
import { typeText } from './product';
import { amountText, code } from './text';

/**
 * Point 6's part on the spec's user fields (`users.fields`): what every account carries beyond
 * name, email and roles, who sets it, and how conditions read it. Empty when there are none.
 */
export function userFieldBlocks(model: AppModel): DocBlock[] {
  const fields = model.users.fields;
  const [first] = fields;
  if (first === undefined) return [];
  return [
    { kind: 'heading', text: 'Users' },
    {
      kind: 'paragraph',
      text:
        'Every account carries these fields besides its name, email and roles. Administrators set them (on /admin/users, or with ' +
        `${code('user add')}/${code('user set --field')} in the CLI); conditions read the signed-in user's as ${code(`{ actor: '${first.name}' }`)}.`,
    },
    {
      kind: 'table',
      columns: ['Field', 'Type', 'Required', 'Default', 'Notes'],
      rows: fields.map((field) => [
        code(field.name),
        userFieldType(field, model),
        field.required ? 'yes' : 'no',
        defaultText(field),
        notes(field),
      ]),
    },
  ];
}

function userFieldType(field: FieldModel, model: AppModel): string {
  if (field.spec.type === 'reference') return `reference → ${model.entitiesByName[field.spec.to]?.label ?? field.spec.to}`;
  return typeText(field.spec);
}

function defaultText(field: FieldModel): string {
  const value = plainDefault(field);
  const constant = field.defaultTo?.kind === 'value' ? field.defaultTo.constant : null;
  return value === undefined ? '' : constant ? `${String(value)} (constant ${constant})` : String(value);
}

function notes(field: FieldModel): string {
  const { spec } = field;
  const parts: string[] = [];
  if (spec.label) parts.push(`label "${spec.label}"`);
  if (spec.type === 'text' && spec.maxLength !== undefined) parts.push(`max length ${spec.maxLength}`);
  if (spec.type === 'integer' && spec.min !== undefined) parts.push(`min ${amountText(spec.min)}`);
  if (spec.type === 'integer' && spec.max !== undefined) parts.push(`max ${amountText(spec.max)}`);
  if (spec.type === 'reference' || spec.type === 'user')
    parts.push(`emptied when the ${spec.type === 'user' ? 'user' : spec.to} is deleted`);
  if (field.holderRoles) parts.push(`held only by users with the role ${field.holderRoles.join(' or ')}`);
  if (spec.help) parts.push(spec.help);
  return parts.join('; ');
}
