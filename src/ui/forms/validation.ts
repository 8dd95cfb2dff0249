import { checkEntityRules } from '@/engine/rules/entity-rules';
import { readsActor } from '@/engine/rules/condition-paths';
import { conditionShape } from '@/engine/condition/compile';
import { conditionFields } from '@/engine/condition/fields';
import { fieldSchema, issueMessage, type StoredValue } from '@/engine/rules/field-schema';
import type { AppModel, EntityModel, FieldModel } from '@/engine/spec/model';
import type { WorkingCalendar } from '@/engine/time/working-days';
import type { Condition, ConstantSpec, RuleSpec } from '@/engine/spec/types';
import { ownValue } from '@/engine/spec/own-names';

/*
 * Feedback in the browser with the server's own rules: the same zod schema per field
 * (src/engine/rules/field-schema.ts) and the same cross-field rules (entity-rules.ts), fed with
 * what the inputs hold. The server stays authoritative; this only tells the user earlier, with
 * the words the server would use.
 */

export type ConstantValues = Readonly<Record<string, { readonly value: ConstantSpec['value'] }>>;

/** What a form needs to check its fields as the server does: plain data, sent to the browser. */
export interface FormChecks {
  /** The fields the form shows, as the engine models them. */
  readonly fields: readonly FieldModel[];
  /** The constants those fields and rules refer to. */
  readonly constants: ConstantValues;
  /** The spec's working calendar, for rules that count working days. */
  readonly calendar: WorkingCalendar;
  /** The entity's cross-field rules whose fields are all in the form, by name. */
  readonly rules: Readonly<Record<string, RuleSpec>>;
  /**
   * On an edit form, the stored values of its fields as the inputs first held them: a rule
   * checked only on change (`onChange`, e.g. a due time after now) skips a field left as it was.
   */
  readonly before?: Readonly<Record<string, string>>;
}

/** Every field a rule reads, and the one its message is shown next to. */
export function ruleFields(rule: RuleSpec): string[] {
  // A path counts as written (`patient.account`): no input of the form holds it, so the rule is the server's.
  const read = (condition: Condition) => conditionFields(conditionShape(condition), { paths: 'whole', operands: true });
  const fields = new Set([...read(rule.assert), ...(rule.when ? read(rule.when) : [])]);
  if (rule.field) fields.add(rule.field);
  return [...fields];
}

/** The names of the constants a piece of the spec refers to (`{ $constant: name }` anywhere in it). */
function constantNames(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => constantNames(v, into));
  else if (value !== null && typeof value === 'object') {
    const ref = (value as { $constant?: unknown }).$constant;
    if (typeof ref === 'string') into.add(ref);
    else Object.values(value).forEach((v) => constantNames(v, into));
  }
  return into;
}

/**
 * The checks of a form showing `fields` of `entity`. Rules that read a field the form does not
 * show are left to the server: the browser cannot know that field's value (and the rule may
 * concern a field the user may not even see).
 */
export function formChecks(
  model: Pick<AppModel, 'constants' | 'calendar'>,
  entity: Pick<EntityModel, 'rules'>,
  fields: readonly FieldModel[],
  before?: Readonly<Record<string, string>>,
): FormChecks {
  // A computed due time is the engine's, from values the form may not hold (the creation time):
  // shown or not, its input is not what the server reads, so rules reading it are the server's.
  const shown = new Set(fields.filter((f) => f.due === undefined).map((f) => f.name));
  // A rule comparing with the user (`{ actor }`) is the server's too: the browser does not know them.
  const rules = Object.fromEntries(
    Object.entries(entity.rules).filter(
      ([, rule]) => ruleFields(rule).every((name) => shown.has(name)) && !readsActor(rule.assert) && !(rule.when && readsActor(rule.when)),
    ),
  );
  const names = constantNames([fields.map((f) => f.spec), Object.values(rules)], new Set());
  const used = Object.fromEntries(
    [...names].flatMap((name) => {
      const constant = ownValue(model.constants, name);
      return constant ? [[name, { value: constant.value }] as const] : [];
    }),
  );
  const stored =
    before === undefined
      ? {}
      : {
          before: Object.fromEntries(
            fields.flatMap((f) => {
              const value = ownValue(before, f.name);
              return value === undefined ? [] : [[f.name, value] as const];
            }),
          ),
        };
  return { fields, constants: used, calendar: model.calendar, rules, ...stored };
}

type ParseResult = { readonly ok: true; readonly value: StoredValue } | { readonly ok: false; readonly message: string };

/** One field's raw input parsed by the server's schema: its stored value, or the server's message. */
export function parseField(field: FieldModel, raw: string): ParseResult {
  const result = fieldSchema(field).safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  // zod fails with at least one issue; its own summary is only for the case that cannot happen.
  const [issue] = result.error.issues;
  return { ok: false, message: issue ? issueMessage(issue, field) : result.error.message };
}

/** The message for one field's raw input, or null when the server would accept it. */
export function fieldMessage(field: FieldModel, raw: string): string | null {
  const result = parseField(field, raw);
  return result.ok ? null : result.message;
}

/**
 * Verdicts of the cross-field rules that read at least one of `touched`, by the field their
 * message is shown next to: the first broken rule's message, or null when they all hold. A rule
 * reading a field whose input does not parse is skipped (that field shows its own message).
 */
export function ruleVerdicts(
  checks: FormChecks,
  raw: Readonly<Record<string, string>>,
  touched: ReadonlySet<string>,
  now: Date,
): Record<string, string | null> {
  const byName = new Map(checks.fields.map((f) => [f.name, f]));
  const parsed = new Map<string, ParseResult>();
  const valueOf = (name: string): ParseResult => {
    let result = parsed.get(name);
    if (!result) {
      const field = byName.get(name);
      result = field ? parseField(field, raw[name] ?? '') : { ok: false, message: '' };
      parsed.set(name, result);
    }
    return result;
  };
  // The record as stored, for rules checked only on change; a value that no longer parses counts as absent.
  const stored = checks.before;
  const before = stored
    ? Object.fromEntries(
        checks.fields.flatMap((f) => {
          const value = ownValue(stored, f.name);
          if (value === undefined) return [];
          const result = parseField(f, value);
          return [[f.name, result.ok ? result.value : null] as const];
        }),
      )
    : null;
  const verdicts: Record<string, string | null> = {};
  for (const [name, rule] of Object.entries(checks.rules)) {
    const fields = ruleFields(rule);
    if (!fields.some((f) => touched.has(f))) continue;
    const record: Record<string, StoredValue> = {};
    let complete = true;
    for (const f of fields) {
      const result = valueOf(f);
      if (!result.ok) {
        complete = false;
        break;
      }
      record[f] = result.value;
    }
    if (!complete) continue;
    for (const error of checkEntityRules(checks, { rules: { [name]: rule } }, record, now, before)) verdicts[error.field] ??= error.message;
    const target = ruleTarget(rule);
    if (target !== undefined) verdicts[target] ??= null;
  }
  return verdicts;
}

/** Where a rule's message goes, as checkEntityRules places it: its field, or the first its assertion reads. */
export function ruleTarget(rule: RuleSpec): string | undefined {
  return rule.field ?? conditionFields(conditionShape(rule.assert), { paths: 'whole', operands: false })[0];
}

/**
 * The error shown next to a field: the browser's verdict when it has one, otherwise the
 * server's. A field verdict of null (checked since the server answered, and fine) hides the
 * server's message; a rule verdict of null hides it only when it was that rule's message.
 */
export function shownError(options: {
  server: string | undefined;
  field: string | null | undefined;
  rule: string | null | undefined;
  ruleMessages: readonly string[];
}): string | undefined {
  const { server, field, rule, ruleMessages } = options;
  if (field) return field;
  if (rule) return rule;
  if (field === null) return undefined;
  if (server !== undefined && rule === null && ruleMessages.includes(server)) return undefined;
  return server;
}
