import { describe, expect, it } from 'vitest';
import { ledgerSpec } from '@testing/engine/call-door';
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

/** The ledger with `change` applied to a deep copy (handlers kept). */
function ledgerWith(change: (spec: Mutable) => void): AppSpec {
  const copy = structuredClone({ ...ledgerSpec, calls: undefined }) as unknown as Mutable;
  copy.calls = { ...ledgerSpec.calls } as unknown as Mutable;
  change(copy);
  return copy as unknown as AppSpec;
}

const issuesOf = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);

describe("the spec's checks of writtenBy", () => {
  it('accepts the ledger', () => {
    expect(issuesOf(ledgerSpec)).toEqual([]);
  });

  it("refuses any value but 'calls', on entities and fields", () => {
    const issues = issuesOf(
      ledgerWith((s) => {
        node(s, 'entities.payment').writtenBy = 'workflow' as never;
        node(s, 'entities.account.fields.note').writtenBy = true as never;
      }),
    );
    expect(issues).toContain('entities.payment.writtenBy: must be "calls", got "workflow"');
    expect(issues).toContain('entities.account.fields.note.writtenBy: must be "calls", got true');
  });

  it('refuses an entity only calls write in a spec without calls', () => {
    const issues = issuesOf(ledgerWith((s) => delete s.calls));
    expect(issues).toContain(
      'entities.payment.writtenBy: the spec has no calls, so nothing could ever create one (workflows change existing records only): declare the calls that write it',
    );
    expect(issues.some((i) => i.startsWith('entities.account.fields.balance.writtenBy: the spec has no calls'))).toBe(true);
  });

  it('refuses a field that is also read-only, or required without a default on an entity others create', () => {
    const issues = issuesOf(
      ledgerWith((s) => {
        node(s, 'entities.account.fields.note').readOnly = true as never;
        node(s, 'entities.account.fields.note').writtenBy = 'calls' as never;
        delete node(s, 'entities.account.fields.balance').default;
      }),
    );
    expect(issues).toContain('entities.account.fields.note.writtenBy: a read-only field is written by no call either: keep one of the two');
    expect(issues).toContain(
      'entities.account.fields.balance.writtenBy: a required field only calls write needs a default: forms, imports and the API create records without it',
    );
    // On an entity only calls write, only calls create records: they fill it.
    expect(issuesOf(ledgerWith((s) => (node(s, 'entities.payment.fields.memo').writtenBy = 'calls' as never)))).toEqual([]);
  });

  it("refuses a role's writableFields naming a field only calls write", () => {
    const issues = issuesOf(ledgerWith((s) => (node(s, 'permissions.account.viewer').writableFields = ['note', 'balance'] as never)));
    expect(issues).toEqual([
      'permissions.account.viewer.writableFields: "balance" is written only by calls: no form, import or API request of this role could write it (calls write it whenever the role may create or change the record)',
    ]);
  });

  it("refuses writtenBy on a call's input", () => {
    const issues = issuesOf(
      ledgerWith(
        (s) =>
          (node(s, 'calls').pay = {
            ...node(s, 'calls').pay,
            input: { amount: { type: 'integer', required: true, writtenBy: 'calls' } },
          } as never),
      ),
    );
    expect(issues).toEqual(["calls.pay.input.amount.writtenBy: is for the fields of entities: a call's input and output are not stored"]);
  });
});
