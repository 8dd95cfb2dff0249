import type { NotificationModel } from './notifications';
import type { WebhookEventModel } from './webhooks';
import type {
  AppSpec,
  CallSpec,
  Condition,
  ConstantSpec,
  EffectAuthority,
  EffectSpec,
  ErrorSpec,
  FieldSpec,
  FieldType,
  GrantSpec,
  LimitSpec,
  RoleSpec,
  RuleSpec,
  TransitionActor,
  WrittenBy,
} from './types';
import type { AutoModel } from './auto';
import type { DueModel } from './due';
import type { ComputedModel } from './computed';
import type { FieldDefault } from './field-default';
import type { DerivedModel } from './derived';
import type { DetailModel } from './screens/detail-model';
import type { HomeModel } from './screens/home-model';
import type { DocumentationModel } from './screens/documentation';
import type { PresentationModel } from './screens/presentation';
import type { RouteModel } from './screens/route-model';
import type { ConditionBook } from '../condition/book';
import type { WorkingCalendar } from '../time/working-days';
import type { DecimalDigits, NumberBounds } from './field-numbers';
import type { WebhookModel } from './webhooks';

/**
 * The spec after it has been checked and its defaults filled in ("sanitized" once at boot).
 * Every other part of the engine reads this, never the raw spec.
 */

/** A file field's limits: files (1 for `file`), bytes per file, accepted types (null: any). */
export interface FileLimits {
  readonly maxItems: number;
  readonly maxBytes: number;
  readonly accept: readonly string[] | null;
}

export interface FieldModel {
  readonly name: string;
  /** SQL column name (snake_case of the field name). */
  readonly column: string;
  readonly label: string;
  readonly type: FieldType;
  readonly spec: FieldSpec;
  readonly required: boolean;
  readonly readOnly: boolean;
  /** 'calls': only the spec's calls (and workflow effects, the default) write it; absent: whoever the grants let. */
  readonly writtenBy?: WrittenBy;
  readonly unique: boolean;
  readonly searchable: boolean;
  /** For reference and references fields: the entity referred to. */
  readonly referenceTo?: string;
  /** For references and users fields: the most ids the set holds, its constant resolved (MAX_REFERENCES when the spec sets none). */
  readonly maxItems?: number;
  /** For file and files fields: what each file may be (constants resolved, defaults filled). */
  readonly files?: FileLimits;
  /** For references and users fields (sets): the join table holding (record_id, target_id) pairs. */
  readonly joinTable?: string;
  /** For reference fields with `within`: the reference field the chosen record must share with this one's record. */
  readonly within?: string;
  /** For user and users fields with `roles`: the roles one of which its user must hold (choices and writes). */
  readonly holderRoles?: readonly string[];
  /** For enum fields: the allowed values, in order. */
  readonly enumValues?: readonly string[];
  /** For computed due times (datetime fields with `due`): how the engine sets them. Read-only. */
  readonly due?: DueModel;
  /** For computed fields (`computed`): how the engine computes them from the record's own fields. Read-only. */
  readonly computed?: ComputedModel;
  /** The default a create takes when the field is not given, constants resolved (./field-default.ts). */
  readonly defaultTo?: FieldDefault;
  /** For derived fields (`derived`): which related records the engine folds into it. Read-only. */
  readonly derived?: DerivedModel;
  /** For decimal and money fields: the column's digits, defaults filled in (./field-numbers.ts). */
  readonly decimal?: DecimalDigits;
  /** For money fields: the ISO 4217 code of its amounts, the spec's default filled in. */
  readonly currency?: string;
  /** For integer, decimal and money fields: min and max as numbers, constants resolved. */
  readonly bounds?: NumberBounds;
  /** For an entity's text and markdown fields: the texts its demo data picks among (the entity's `samples`). */
  readonly samples?: readonly string[];
  /** The fields whose samples go with this one's (lists as long: the same place in each, see ./samples.ts). */
  readonly samplesWith?: readonly string[];
}

/**
 * A limit of the spec (point 5) with its maximum as a number, its constant resolved when the
 * model is built; or, for `max: { field }`, null and where the maximum is read (`maxField`).
 */
export interface LimitModel extends LimitSpec {
  readonly maxValue: number | null;
  readonly maxField?: LimitMaxFieldModel;
}

/** A limit's maximum held by the record its `per` reference points at (an event's capacity). */
export interface LimitMaxFieldModel {
  /** The entity referred to, and its integer field holding the maximum. */
  readonly entity: string;
  readonly field: string;
  readonly column: string;
  /** "the event's capacity", for messages and /spec. */
  readonly text: string;
}

/** A column every record has, maintained by the engine. */
export interface SystemColumn {
  readonly name: 'id' | 'version' | 'createdAt' | 'updatedAt' | 'createdBy' | 'updatedBy';
  readonly column: string;
  readonly label: string;
}

export interface SortModel {
  /** A field name, a system column name, or "state". */
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

export interface ListModel {
  readonly columns: readonly string[];
  readonly sort: SortModel;
  readonly filters: readonly string[];
  readonly pageSize: number;
  /** The list shown as a board by default (`board` in the spec); null: a table only. */
  readonly board: BoardModel | null;
  /** Whether rows may be selected for bulk actions (a role's list may say no). */
  readonly bulk: boolean;
  /** Whether the list offers CSV import and the import page opens (a role's list may say no). */
  readonly import: boolean;
  /** The list of the roles that have their own (`roles` in the spec), complete; read it through listFor (screens/for-roles.ts). */
  readonly roles: Readonly<Record<string, RoleListModel>>;
}

/** A role's own list: the entity's list with the role's choices in place. */
export type RoleListModel = Omit<ListModel, 'roles'>;

/** A board's columns: one per value of its field, in the declared order (states, enum values). */
export interface BoardModel {
  /** The workflow's state field or an enum field. */
  readonly field: string;
  readonly values: readonly string[];
  /** The number or money field summed per column; null: counts only. */
  readonly sum: string | null;
}

export interface StateModel {
  readonly name: string;
  readonly label: string;
  readonly initial: boolean;
  readonly final: boolean;
  readonly description?: string;
  /** The state in some roles' own words (`roles` in the spec); read it through workflowFor (screens/for-roles.ts). */
  readonly roles: Readonly<Record<string, StateWords>>;
}

/** What a state is called, and said to be, for a role. */
export interface StateWords {
  readonly label: string;
  readonly description?: string;
}

/** A guard of a transition with its defaults: the refusal's code, and its message when the spec words it. */
export interface GuardModel {
  readonly when: Condition;
  readonly code: string;
  readonly message?: string;
}

/** A state a transition may enter: when `when` holds (the last target has none: otherwise). */
export interface TransitionTargetModel {
  readonly state: string;
  readonly when?: Condition;
}

/** An effect on the record the reference field `on` points at (an entity of `target`), with its authority. */
export type ReferenceEffectModel = {
  readonly on: string;
  /** The entity the reference field points at. */
  readonly target: string;
  readonly as: EffectAuthority;
} & (
  | { readonly kind: 'set'; readonly set: string; readonly to: EffectSpec['to'] }
  | { readonly kind: 'transition'; readonly transition: string }
);

export interface TransitionModel {
  readonly name: string;
  readonly label: string;
  readonly from: readonly string[];
  /** The states it may enter, in the order tried (one, unconditional, for most): workflow/targets.ts chooses. */
  readonly to: readonly TransitionTargetModel[];
  readonly allow: readonly TransitionActor[];
  readonly requires: readonly string[];
  /** What must hold besides who takes it, in the order checked: a spec's one guard or its list. */
  readonly guards: readonly GuardModel[];
  /** Fields of the record itself it sets. */
  readonly effects: readonly EffectSpec[];
  /** Effects on referenced records, in the spec's order, after the record is written. */
  readonly referenceEffects: readonly ReferenceEffectModel[];
  readonly comment?: 'required' | 'optional';
  /** When the scheduler takes it by itself; null: only people take it. */
  readonly auto: AutoModel | null;
}

export interface WorkflowModel {
  /** The record property holding the state ("state" unless the spec says otherwise). */
  readonly field: string;
  readonly column: string;
  readonly states: readonly StateModel[];
  readonly initial: string;
  readonly transitions: readonly TransitionModel[];
  /** The catalogue code refusing a change to a record in a final state. */
  readonly finalError: string;
}

export interface EntityModel {
  readonly name: string;
  readonly label: string;
  readonly plural: string;
  readonly pluralLabel: string;
  readonly description?: string;
  /** SQL table name. */
  readonly table: string;
  readonly titleField: string | null;
  /** Declared fields in spec order. */
  readonly fields: readonly FieldModel[];
  /** Own names only (own-names.ts): a client's `constructor` or `__proto__` finds nothing. */
  readonly fieldsByName: Readonly<Record<string, FieldModel>>;
  readonly systemColumns: readonly SystemColumn[];
  /** The spec's notifications about this entity's records (empty: the write path writes no outbox row). */
  readonly notifications: readonly NotificationModel[];
  /** The webhook events about this entity's records (empty, with no notification: the write path writes no outbox row). */
  readonly webhookEvents: readonly WebhookEventModel[];
  readonly workflow: WorkflowModel | null;
  readonly list: ListModel;
  /** The detail page: its sections of related records. */
  readonly details: DetailModel;
  /** Reader pages for the roles named (`screens.presentation`); null: the back office for everyone. */
  readonly presentation: PresentationModel | null;
  readonly searchFields: readonly string[];
  readonly uniqueTogether: readonly (readonly string[])[];
  /** Partial uniqueness (`uniqueWhen`), each kept by a partial unique index. */
  readonly uniqueWhen: readonly UniqueWhenModel[];
  readonly rules: Readonly<Record<string, RuleSpec>>;
  readonly limits: Readonly<Record<string, LimitModel>>;
  /** Ranges that may not overlap (`exclusive`), each kept by an exclusion constraint. */
  readonly exclusive: readonly ExclusiveModel[];
  readonly permissions: Readonly<Record<string, GrantSpec>>;
  /** 'calls': created, changed and deleted only through the spec's calls (and workflow effects). */
  readonly writtenBy?: WrittenBy;
  /** Effects of a create on referenced records (`onCreate`). */
  readonly onCreate: readonly ReferenceEffectModel[];
}

/** One `uniqueWhen` of an entity with its defaults: the index that keeps it and what the user reads. */
export interface UniqueWhenModel {
  readonly fields: readonly string[];
  readonly where: Condition;
  readonly message: string;
  /** The catalogue code of the refusal (the spec's `error`, default VALIDATION_FAILED). */
  readonly code: string;
  /** The partial unique index's name (it changes when the fields or the condition do). */
  readonly index: string;
}

/** One `exclusive` of an entity with its defaults: the constraint that keeps it and what a refused write reads. */
export interface ExclusiveModel {
  readonly start: string;
  readonly end: string;
  /** 'daterange' for date fields, 'tstzrange' for datetime fields. */
  readonly rangeType: 'daterange' | 'tstzrange';
  readonly per: readonly string[];
  readonly where: Condition | null;
  readonly message: string;
  /** The refusal's code: the spec's `error`, else VALIDATION_FAILED. */
  readonly code: string;
  /** The status and title of a code the spec's catalogue declares (built-in codes carry their own). */
  readonly own?: { readonly status: number; readonly title: string };
  /** The exclusion constraint's name (it changes when the range, the key or the condition do). */
  readonly constraint: string;
}

/** The spec's fields of every user account (`users.fields`), kept as columns of nf_user. */
export interface UsersModel {
  readonly fields: readonly FieldModel[];
  readonly fieldsByName: Readonly<Record<string, FieldModel>>;
}

export interface AppModel {
  readonly spec: AppSpec;
  readonly name: string;
  readonly title: string;
  readonly summary: string | null;
  /** purpose.roles: the summary in some roles' own words; read it through summaryFor (screens/for-roles.ts). */
  readonly summaries: Readonly<Record<string, string>>;
  readonly audience: readonly string[];
  /** purpose.timeZone, or 'UTC': the zone of a viewer who has no zone of their own (src/server/viewer-zone.ts). */
  readonly timeZone: string;
  /** purpose.locale, or 'en-US': how pages write numbers and amounts (src/ui/format-number.ts). */
  readonly locale: string;
  readonly entities: readonly EntityModel[];
  /** Own names only, as fieldsByName. */
  readonly entitiesByName: Readonly<Record<string, EntityModel>>;
  readonly entitiesByPlural: Readonly<Record<string, EntityModel>>;
  /** Entities linked from the navigation shell, in order. */
  readonly navigation: readonly EntityModel[];
  readonly labels: Readonly<Record<string, string>>;
  /** The home page's widgets; null: the default home (counts per entity and state). */
  readonly home: HomeModel | null;
  /** Custom routes of `screens.routes`. */
  readonly routes: readonly RouteModel[];
  /** Who may read /spec and /api/docs. */
  readonly documentation: DocumentationModel;
  readonly roles: Readonly<Record<string, RoleSpec>>;
  /** The spec's user fields (none when it declares no `users`). */
  readonly users: UsersModel;
  readonly calls: Readonly<Record<string, CallSpec>>;
  readonly errors: Readonly<Record<string, ErrorSpec>>;
  readonly constants: Readonly<Record<string, ConstantSpec>>;
  /** The working week and days off that durations in working days count on (spec/calendar.ts). */
  readonly calendar: WorkingCalendar;
  /** Every condition of the model, compiled once (condition/book.ts). */
  readonly conditions: ConditionBook;
  /** The spec's webhooks (./webhooks.ts), in the spec's order. */
  readonly webhooks: readonly WebhookModel[];
  /** Every notification of the spec (spec/notifications.ts). */
  readonly notifications: readonly NotificationModel[];
  /** By entity: the roles whose users may watch its records. */
  readonly watch: Readonly<Record<string, readonly string[]>>;
}
