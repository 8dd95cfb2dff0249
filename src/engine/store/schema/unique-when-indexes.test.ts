import { describe, expect, it } from 'vitest';
import { buildModel } from '../../spec/build';
import type { AppSpec, Condition } from '../../spec/types';
import { desiredSchema } from './desired';
import { GENERATED_COMMENT_PREFIX, planSchema } from './plan';
import { literalPredicateSql } from '../../condition/literal-sql';
import type { CatalogueIndex, CatalogueSchema, TableDef } from './types';

const SPEC = {
  name: 'lending',
  entities: {
    item: { titleField: 'name', fields: { name: { type: 'text', required: true }, owner: { type: 'text' } } },
    loan: {
      titleField: 'code',
      fields: {
        code: { type: 'text', required: true },
        item: { type: 'reference', to: 'item', required: true },
        kind: { type: 'enum', values: ['short', 'long'], default: 'short', required: true },
        amount: { type: 'integer' },
        note: { type: 'text' },
      },
      uniqueWhen: {
        fields: ['item'],
        where: { field: 'state', op: 'in', value: ['active', 'late'] },
        message: 'This item is already lent.',
      },
    },
  },
  workflows: {
    loan: {
      states: { active: { initial: true }, late: {}, returned: { final: true } },
      transitions: { back: { from: ['active', 'late'], to: 'returned', allow: ['clerk'] } },
    },
  },
  roles: { clerk: { label: 'Clerk' } },
  permissions: { loan: { clerk: { list: true, read: true, create: true } } },
  constants: { bigLoan: { value: 1000 }, who: { value: "O'Brien" } },
} as unknown as AppSpec;

const model = buildModel(SPEC);
const loan = model.entitiesByName.loan!;

/** The catalogue as the database shows the tables once created (unique and partial indexes as such). */
function catalogueOf(tables: readonly TableDef[], extraIndexes: readonly CatalogueIndex[] = []): CatalogueSchema {
  return {
    meta: null,
    tables: tables.map((t) => ({
      name: t.name,
      columns: t.columns.map((c) => ({
        name: c.name,
        type: c.type,
        nullable: c.nullable,
        default: c.default ?? null,
        identity: c.identity ?? false,
        generated: c.generated ? `server form of ${c.generated}` : null,
        comment: c.generated ? GENERATED_COMMENT_PREFIX + c.generated : null,
      })),
      constraints: [
        { name: `${t.name}_pkey`, kind: 'primary' as const, columns: t.primaryKey },
        ...t.uniques.map((u) => ({ name: u.name, kind: 'unique' as const, columns: u.columns })),
        ...t.foreignKeys.map((f) => ({
          name: f.name,
          kind: 'foreign' as const,
          columns: f.columns,
          references: f.references,
          onDelete: f.onDelete,
        })),
      ],
      indexes: [
        ...t.uniques.map((u) => ({ name: u.name, columns: u.columns, method: 'btree', unique: true, partial: false, constraint: true })),
        ...t.indexes.map((i) => ({
          name: i.name,
          columns: i.order ? [null, ...i.columns] : i.columns,
          method: i.method,
          unique: i.unique ?? false,
          partial: i.where !== undefined,
          constraint: false,
        })),
        ...(t.name === 'loan' ? extraIndexes : []),
      ],
    })),
  };
}

const sqlOf = (condition: Condition) => literalPredicateSql(loan, model.conditions.of(condition));

describe('the partial unique indexes of uniqueWhen', () => {
  it('are part of the desired schema, keyed by the fields, with the condition as predicate', () => {
    const table = desiredSchema(model).find((t) => t.name === 'loan')!;
    const index = table.indexes.find((i) => i.name === loan.uniqueWhen[0]!.index);
    expect(index).toEqual({
      name: loan.uniqueWhen[0]!.index,
      columns: ['item'],
      method: 'btree',
      unique: true,
      where: `"state" in ('active', 'late')`,
      rule: 'Loan (loan): item is unique among loans where state is one of active, late',
    });
  });

  it('are created with a new table', () => {
    const plan = planSchema(desiredSchema(model), catalogueOf([]));
    const create = plan.additive.find((s) => s.kind === 'create-table' && s.table === 'loan')!;
    expect(create.sql).toContain(
      `create unique index "${loan.uniqueWhen[0]!.index}" on "loan" using btree ("item") where "state" in ('active', 'late')`,
    );
  });

  it('are added when missing, saying which rule, and left alone when there', () => {
    const desired = desiredSchema(model);
    const without = desired.map((t) => (t.name === 'loan' ? { ...t, indexes: t.indexes.filter((i) => !i.unique) } : t));
    const plan = planSchema(desired, catalogueOf(without));
    expect(plan.destructive).toEqual([]);
    expect(plan.additive).toEqual([
      expect.objectContaining({
        kind: 'add-index',
        table: 'loan',
        sql: [`create unique index "${loan.uniqueWhen[0]!.index}" on "loan" using btree ("item") where "state" in ('active', 'late')`],
        uniqueRule: 'Loan (loan): item is unique among loans where state is one of active, late',
      }),
    ]);
    expect(planSchema(desired, catalogueOf(desired))).toEqual({ additive: [], destructive: [] });
  });

  it('are dropped (additively: an index holds no data) when the spec no longer has the rule or changed it', () => {
    const desired = desiredSchema(model);
    const old: CatalogueIndex = {
      name: 'loan_uw_0123456789',
      columns: ['item'],
      method: 'btree',
      unique: true,
      partial: true,
      constraint: false,
    };
    const plan = planSchema(desired, catalogueOf(desired, [old]));
    expect(plan.destructive).toEqual([]);
    expect(plan.additive).toEqual([
      expect.objectContaining({ kind: 'drop-index', table: 'loan', sql: ['drop index if exists "loan_uw_0123456789"'] }),
    ]);
  });

  it('keeps unique indexes made by hand, even partial ones', () => {
    const desired = desiredSchema(model);
    const handMade: CatalogueIndex[] = [
      { name: 'loan_code_lower', columns: [null], method: 'btree', unique: true, partial: false, constraint: false },
      { name: 'loan_active_codes', columns: ['code'], method: 'btree', unique: true, partial: true, constraint: false },
    ];
    expect(planSchema(desired, catalogueOf(desired, handMade))).toEqual({ additive: [], destructive: [] });
  });
});

describe('literalPredicateSql', () => {
  it('writes values in, escaped, and constants as their values', () => {
    expect(sqlOf({ field: 'note', op: 'eq', value: "it's" })).toBe(`"note" = 'it''s'`);
    expect(sqlOf({ field: 'note', op: 'eq', value: { $constant: 'who' } })).toBe(`"note" = 'O''Brien'`);
    expect(sqlOf({ field: 'amount', op: 'gte', value: { $constant: 'bigLoan' } })).toBe(`"amount" >= 1000`);
    expect(sqlOf({ field: 'note', op: 'eq', value: "'; drop table loan; --" })).toBe(`"note" = '''; drop table loan; --'`);
  });

  it('reads ne as `is distinct from`, like every other condition, and combines all / any / not', () => {
    expect(
      sqlOf({
        all: [
          { field: 'kind', op: 'ne', value: 'long' },
          {
            any: [
              { field: 'note', op: 'present' },
              { field: 'amount', op: 'notIn', value: [1, 2] },
            ],
          },
          { not: { field: 'state', op: 'eq', value: 'late' } },
        ],
      }),
    ).toBe(`("kind" is distinct from 'long' and ("note" is not null or "amount" not in (1, 2)) and not ("state" = 'late'))`);
    expect(sqlOf({ all: [] })).toBe('true');
    expect(sqlOf({ field: 'kind', op: 'in', value: [] })).toBe('false');
  });

  it('refuses what is not a literal (the spec checks keep it out)', () => {
    expect(() => sqlOf({ field: 'amount', op: 'lt', value: { now: true } })).toThrow(/literal values and constants only/);
    expect(() => sqlOf({ field: 'createdBy', op: 'present' })).toThrow(/cannot be part of an index predicate/);
  });
});
