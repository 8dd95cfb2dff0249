import 'server-only';
import type { Engine } from '@/engine/engine';
import { personChoiceTitle } from '@/engine/identity/people';
import type { UserInfo } from '@/engine/identity/types';
import type { RecordValue } from '@/engine/ground/record-value';
import type { Actor } from '@/engine/ground/actor';
import type { FieldModel } from '@/engine/spec/model';
import type { UserFieldInput } from '@/ui/forms/user-fields-state';
import { inSentence } from '@/engine/spec/naming';
import { recordTitle } from '@/engine/ops/record-title';
import { knownEntity } from '@/ui/known-names';
import { enumLabel } from '@/ui/format';

/** Records offered in a reference's select at most; beyond, the administrator types the id. */
const MAX_CHOICES = 500;

/**
 * The inputs of the spec's user fields for the administrators' page. The records a reference
 * offers are read through ops as the administrator (so their scopes and hidden fields hold);
 * a user field offers the accounts that hold one of its roles.
 */
export async function userFieldInputs(engine: Engine, admin: Actor, users: readonly UserInfo[]): Promise<UserFieldInput[]> {
  return Promise.all(engine.model.users.fields.map((field) => inputOf(engine, admin, field, users)));
}

async function inputOf(engine: Engine, admin: Actor, field: FieldModel, users: readonly UserInfo[]): Promise<UserFieldInput> {
  const base = { name: field.name, label: field.label, required: field.required, ...(field.spec.help ? { help: field.spec.help } : {}) };
  const spec = field.spec;
  switch (spec.type) {
    case 'reference': {
      const target = knownEntity(engine.model, spec.to);
      const page = await engine.ops.list(admin, spec.to, { limit: MAX_CHOICES });
      if (page.nextCursor !== null)
        return {
          ...base,
          kind: 'integer',
          min: 1,
          help: `${field.spec.help ? `${field.spec.help} ` : ''}The id of the ${inSentence(target.label)}.`,
        };
      const choices = page.rows.map((row) => ({ value: String(row.id), label: recordTitle(target, row, page.references) }));
      return { ...base, kind: 'select', choices: choices.sort((a, b) => a.label.localeCompare(b.label)) };
    }
    case 'user': {
      // Disabled accounts stay offered (marked): one may be the value already, which saving must keep.
      const holders = users.filter((u) => !field.holderRoles || u.roles.some((r) => field.holderRoles!.includes(r)));
      return {
        ...base,
        kind: 'select',
        choices: holders.map((u) => ({ value: String(u.id), label: `${personChoiceTitle(admin, u)}${u.disabled ? ' (disabled)' : ''}` })),
      };
    }
    case 'enum':
      return { ...base, kind: 'select', choices: spec.values.map((value) => ({ value, label: enumLabel(spec.labels, value) })) };
    case 'boolean':
      return {
        ...base,
        kind: 'select',
        choices: [
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ],
      };
    case 'integer':
      return {
        ...base,
        kind: 'integer',
        ...(typeof spec.min === 'number' ? { min: spec.min } : {}),
        ...(typeof spec.max === 'number' ? { max: spec.max } : {}),
      };
    default:
      return { ...base, kind: 'text', ...('maxLength' in spec && spec.maxLength !== undefined ? { maxLength: spec.maxLength } : {}) };
  }
}

/** A stored value as the form's input shows it. */
export function inputValue(value: RecordValue | undefined): string {
  if (value === null || value === undefined) return '';
  return Array.isArray(value) ? value.join(',') : value instanceof Date ? value.toISOString() : String(value);
}
