import { describe, expect, it } from 'vitest';
import crm from '../../../../examples/crm/ninefold.spec';
import helpdesk from '../../../../examples/helpdesk/ninefold.spec';
import publication from '../../../../examples/publication/ninefold.spec';
import seed from '../../../../examples/seed/ninefold.spec';
import { buildModel } from '../build';
import type { AppSpec } from '../types';
import { validateSpec } from '../validate';

/** The raw spec as a tree any key of which a test may replace. */
interface Mutable {
  [key: string]: Mutable;
}

/** The subtree at a dotted path of the test's spec ("entities.loan"); a wrong path is the test's own mistake. */
function node(tree: Mutable, path: string): Mutable {
  return path.split('.').reduce((subtree, key) => {
    const next = subtree[key];
    if (next === undefined) throw new Error(`The test's spec has nothing at ${path} (no "${key}").`);
    return next;
  }, tree);
}

/** A small lending spec: items lent in loans, with a workflow and an owner. */
const LENDING = {
  name: 'lending',
  entities: {
    supplier: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    item: {
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true },
        supplier: { type: 'reference', to: 'supplier' },
        notes: { type: 'markdown' },
        tags: { type: 'references', to: 'supplier' },
      },
    },
    loan: {
      titleField: 'code',
      fields: {
        code: { type: 'text', required: true, maxLength: 20 },
        item: { type: 'reference', to: 'item', required: true },
        borrower: { type: 'user', required: true },
        lender: { type: 'user', default: 'actor', required: true },
        kind: { type: 'enum', values: ['short', 'long'], default: 'short', required: true },
        returnBy: { type: 'datetime', due: { from: 'createdAt', hours: 168 } },
        closedAt: { type: 'datetime', readOnly: true },
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
      transitions: {
        overdue: { from: 'active', to: 'late', allow: ['clerk'] },
        back: { from: ['active', 'late'], to: 'returned', allow: ['clerk'] },
      },
    },
  },
  roles: { clerk: { label: 'Clerk' }, borrower: { label: 'Borrower' } },
  permissions: {
    loan: {
      clerk: { list: true, read: true, create: true, update: true },
      borrower: { list: { own: 'borrower' }, read: { own: 'borrower' } },
    },
  },
  constants: { maxLoans: { value: 3 }, activeState: { value: 'active' } },
} as const;

function lendingWith(change: (spec: Mutable) => void): AppSpec {
  const copy = structuredClone(LENDING) as unknown as Mutable;
  change(copy);
  return copy as unknown as AppSpec;
}

const issuesOf = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);
const rule = (value: unknown) => value as Mutable;

describe('the spec checks of uniqueWhen', () => {
  it('accepts a rule, a list of rules, constants and the state', () => {
    expect(issuesOf(LENDING as unknown as AppSpec)).toEqual([]);
    const issues = issuesOf(
      lendingWith((s) => {
        node(s, 'entities.loan').uniqueWhen = rule([
          { fields: ['item'], where: { field: 'state', op: 'eq', value: { $constant: 'activeState' } } },
          {
            fields: ['item', 'borrower'],
            where: { all: [{ field: 'kind', op: 'eq', value: 'long' }, { not: { field: 'returnBy', op: 'absent' } }] },
            message: 'Once.',
          },
        ]);
      }),
    );
    expect(issues).toEqual([]);
  });

  it('refuses unknown, repeated, markdown and references fields, and an empty list', () => {
    const issues = issuesOf(
      lendingWith((s) => {
        node(s, 'entities.item').uniqueWhen = rule({
          fields: ['nope', 'notes', 'tags', 'name', 'name'],
          where: { field: 'name', op: 'present' },
        });
        node(s, 'entities.supplier').uniqueWhen = rule({ fields: [], where: { field: 'name', op: 'present' } });
      }),
    );
    expect(issues).toEqual([
      'entities.supplier.uniqueWhen.fields: needs at least one field',
      'entities.item.uniqueWhen.fields[0]: unknown field "nope" of item (fields: name, supplier, notes, tags)',
      'entities.item.uniqueWhen.fields[1]: a markdown field cannot be unique: a unique index holds columns of short values (not references or markdown)',
      'entities.item.uniqueWhen.fields[2]: a references field cannot be unique: a unique index holds columns of short values (not references or markdown)',
      'entities.item.uniqueWhen.fields[4]: duplicate field "name"',
    ]);
  });

  it('refuses a condition that compares with the time, the user, a parameter or another field', () => {
    const issues = issuesOf(
      lendingWith((s) => {
        node(s, 'entities.loan').uniqueWhen = rule({
          fields: ['item'],
          where: {
            all: [
              { field: 'returnBy', op: 'lt', value: { now: true } },
              { field: 'returnBy', op: 'gt', value: { daysAgo: 3 } },
              { field: 'borrower', op: 'eq', value: { actor: 'id' } },
              { field: 'lender', op: 'ne', value: { field: 'borrower' } },
            ],
          },
        });
      }),
    );
    expect(issues).toHaveLength(4);
    const at = (i: number) => issues.find((issue) => issue.startsWith(`entities.loan.uniqueWhen.where.all[${i}].value: `));
    expect(at(0)).toMatch(/a uniqueWhen condition compares with literal values and constants only, got \{ now \}: the database keeps/);
    expect(at(1)).toMatch(/got \{ daysAgo \}/);
    expect(at(2)).toBe('entities.loan.uniqueWhen.where.all[2].value: { actor: "id" } (the signed-in user) cannot be used here');
    expect(at(3)).toMatch(/got \{ field \}/);
  });

  it('refuses system columns and paths in the condition, and needs a where', () => {
    const issues = issuesOf(
      lendingWith((s) => {
        node(s, 'entities.loan').uniqueWhen = rule([
          { fields: ['item'], where: { field: 'createdBy', op: 'present' } },
          { fields: ['item'], message: 3 },
        ]);
      }),
    );
    expect(issues).toEqual([
      'entities.loan.uniqueWhen[0].where.field: a uniqueWhen condition may only compare the fields and the state of loan, got "createdBy" (the database keeps the condition as the index\'s predicate)',
      'entities.loan.uniqueWhen[1].where: is required: the condition that selects the records among which the fields are unique',
      'entities.loan.uniqueWhen[1].message: must be a string, got 3',
    ]);
  });

  it('refuses a rule that is not an object, and unknown keys', () => {
    const issues = issuesOf(
      lendingWith((s) => {
        node(s, 'entities.loan').uniqueWhen = rule({ fields: ['item'], where: { field: 'state', op: 'eq', value: 'active' }, wehre: 1 });
        node(s, 'entities.item').uniqueWhen = rule('name');
      }),
    );
    expect(issues).toContain('entities.item.uniqueWhen: a uniqueWhen rule must be an object, got "name"');
    expect(
      issues.some((i) => i.startsWith('entities.loan.uniqueWhen.wehre: unknown key in a uniqueWhen rule (did you mean "where"?)')),
    ).toBe(true);
  });

  it('builds one index per rule, named after the table, with the default message', () => {
    const model = buildModel(
      lendingWith((s) => {
        node(s, 'entities.item').uniqueWhen = rule({ fields: ['name', 'supplier'], where: { field: 'supplier', op: 'present' } });
      }),
    );
    const item = model.entitiesByName.item!;
    expect(item.uniqueWhen).toHaveLength(1);
    expect(item.uniqueWhen[0]!.index).toMatch(/^item_uw_[0-9a-f]{10}$/);
    expect(item.uniqueWhen[0]!.message).toBe('Another record already has this name and supplier.');
    expect(model.entitiesByName.loan!.uniqueWhen[0]!.message).toBe('This item is already lent.');
  });

  it('changes the index name when a constant the condition reads changes', () => {
    const named = (value: string) =>
      buildModel(
        lendingWith((s) => {
          node(s, 'constants').activeState = rule({ value });
          node(s, 'entities.loan').uniqueWhen = rule({
            fields: ['item'],
            where: { field: 'state', op: 'eq', value: { $constant: 'activeState' } },
          });
        }),
      ).entitiesByName.loan!.uniqueWhen[0]!.index;
    expect(named('active')).not.toBe(named('late'));
    expect(named('active')).toBe(named('active'));
  });
});

describe('limits per a user or reference field', () => {
  it('accepts a reference field', () => {
    const spec = lendingWith((s) => {
      node(s, 'entities.item').limits = rule({ perSupplier: { max: { $constant: 'maxLoans' }, per: 'supplier' } });
    });
    expect(issuesOf(spec)).toEqual([]);
  });

  it('refuses a field that is neither, naming those that are', () => {
    const issues = issuesOf(
      lendingWith((s) => {
        node(s, 'entities.loan').limits = rule({ perCode: { max: 1, per: 'code' }, perTags: { max: 1, per: 'kind' } });
        node(s, 'entities.item').limits = rule({ perTag: { max: 1, per: 'tags' } });
      }),
    );
    expect(issues).toEqual([
      'entities.item.limits.perTag.per: "tags" is not a user or reference field of item (user and reference fields: supplier)',
      'entities.loan.limits.perCode.per: "code" is not a user or reference field of loan (user and reference fields: borrower, lender, item)',
      'entities.loan.limits.perTags.per: "kind" is not a user or reference field of loan (user and reference fields: borrower, lender, item)',
    ]);
  });
});

describe('grants that could never work', () => {
  it('refuses a create scope own: X that the role cannot set and that does not default to the actor', () => {
    const issues = issuesOf(
      lendingWith((s) => {
        node(s, 'permissions.loan.borrower').create = rule({ own: 'borrower' });
        node(s, 'permissions.loan.borrower').writableFields = rule(['item', 'code']);
      }),
    );
    expect(issues).toEqual([
      "permissions.loan.borrower.create.own: a new loan must be the creator's own through \"borrower\", but this role cannot set it (it is not among the grant's writableFields) and it does not default to the signed-in user, so every create would be refused: give loan.borrower default: 'actor', or let the role write it",
    ]);
  });

  it('accepts own: X when X defaults to the actor or the role may write it', () => {
    expect(issuesOf(lendingWith((s) => (node(s, 'permissions.loan.borrower').create = rule({ own: 'lender' }))))).toEqual([]);
    expect(issuesOf(lendingWith((s) => (node(s, 'permissions.loan.borrower').create = rule({ own: 'borrower' }))))).toEqual([]);
  });

  it('says why X cannot be set: read-only field, hidden or read-only in the grant', () => {
    const readOnly = issuesOf(
      lendingWith((s) => {
        node(s, 'entities.loan.fields.borrower').readOnly = rule(true);
        node(s, 'permissions.loan.borrower').create = rule({ own: 'borrower' });
      }),
    );
    expect(readOnly).toContainEqual(expect.stringContaining('cannot set it (the field is readOnly)'));
    const hidden = issuesOf(
      lendingWith((s) => {
        node(s, 'permissions.loan.borrower').create = rule({ own: 'borrower' });
        node(s, 'permissions.loan.borrower').readOnlyFields = rule(['borrower']);
      }),
    );
    expect(hidden).toEqual([expect.stringContaining('cannot set it (the grant makes it read-only)')]);
  });

  it('refuses writableFields entries that are read-only or due times, at the entry', () => {
    const issues = issuesOf(
      lendingWith((s) => (node(s, 'permissions.loan.clerk').writableFields = rule(['code', 'closedAt', 'returnBy']))),
    );
    expect(issues).toEqual([
      'permissions.loan.clerk.writableFields[1]: "closedAt" is read-only (the field is readOnly), so no role can write it: leave it out of writableFields',
      'permissions.loan.clerk.writableFields[2]: "returnBy" is read-only (the engine computes it (a due time)), so no role can write it: leave it out of writableFields',
    ]);
  });

  it('refuses writableFields entries the same grant hides or makes read-only, at the entry', () => {
    const issues = issuesOf(
      lendingWith((s) => {
        node(s, 'permissions.loan.clerk').writableFields = rule(['code', 'item', 'kind']);
        node(s, 'permissions.loan.clerk').hiddenFields = rule(['kind']);
      }),
    );
    expect(issues).toEqual([
      'permissions.loan.clerk.writableFields[2]: "kind" is both writable and in hiddenFields, so this role can never write it',
    ]);
  });

  it('refuses hiding the title field from a role that may list or read, also the default title field', () => {
    const issues = issuesOf(
      lendingWith((s) => {
        node(s, 'permissions.loan.borrower').hiddenFields = rule(['kind', 'code']);
        node(s, 'permissions').item = rule({
          clerk: { read: true, hiddenFields: ['name'] },
          borrower: { create: true, hiddenFields: ['name'] },
        });
        delete (node(s, 'entities').item as Partial<Mutable>).titleField;
      }),
    );
    expect(issues).toEqual([
      'permissions.loan.borrower.hiddenFields[1]: "code" is the title field of loan, which names its records in links; role "borrower" may list them, so it must see it: show it, or set another titleField',
      'permissions.item.clerk.hiddenFields[0]: "name" is the title field of item, which names its records in links; role "clerk" may read them, so it must see it: show it, or set another titleField',
    ]);
  });
});

describe('the bundled specs', () => {
  it('load with these checks, the publication spec included', () => {
    for (const spec of [helpdesk, crm, seed, publication] as AppSpec[]) expect(issuesOf(spec)).toEqual([]);
  });
});
