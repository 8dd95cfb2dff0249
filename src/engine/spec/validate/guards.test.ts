import { describe, expect, it } from 'vitest';
import helpdesk from '../../../../examples/helpdesk/ninefold.spec';
import { approvals } from '../../workflow/guards.fixture';
import type { AppSpec, TransitionSpec } from '../types';
import { validateSpec } from '../validate';

const issuesOf = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);

/** The approvals spec with its approve transition changed. */
function withApprove(changes: Record<string, unknown>): AppSpec {
  const workflow = approvals.workflows!.expense!;
  const approve = { ...workflow.transitions.approve, ...changes } as TransitionSpec;
  return { ...approvals, workflows: { expense: { ...workflow, transitions: { ...workflow.transitions, approve } } } };
}

const PLACE = 'workflows.expense.transitions.approve';

describe('the spec check of a transition with several guards', () => {
  it('accepts a list of { when, error, message }, and the single form as before', () => {
    expect(issuesOf(approvals)).toEqual([]);
    expect(issuesOf(helpdesk)).toEqual([]);
    expect(
      issuesOf(withApprove({ guard: { field: 'amount', op: 'lte', value: 100 }, guardError: 'OWN_REQUEST', guardMessage: 'No.' })),
    ).toEqual([]);
  });

  it('checks each guard like any condition, its code against the catalogue, and names its place', () => {
    expect(
      issuesOf(
        withApprove({
          guard: [
            { when: { field: 'author', op: 'ne', value: { actor: 'id' } }, error: 'OWN_REQUST', message: 'Not yours.' },
            { when: { field: 'amont', op: 'lte', value: 5000 } },
            { error: 'OWN_REQUEST', message: 42, because: 'why' },
            'amount',
          ],
        }),
      ),
    ).toEqual([
      `${PLACE}.guard[0].error: unknown error code "OWN_REQUST" (not built in, not under errors)`,
      `${PLACE}.guard[1].when.field: unknown field "amont" of expense`,
      `${PLACE}.guard[2].because: unknown key in a guard; expected one of when, error, message`,
      `${PLACE}.guard[2].when: is required: the condition that must hold`,
      `${PLACE}.guard[2].message: must be a string, got 42`,
      `${PLACE}.guard[3]: a guard must be an object, got "amount"`,
    ]);
  });

  it('refuses an empty list, and guardMessage or guardError beside a list (each guard has its own)', () => {
    expect(issuesOf(withApprove({ guard: [] }))).toEqual([
      `${PLACE}.guard: a list of guards needs at least one { when, error?, message? }`,
    ]);
    expect(issuesOf(withApprove({ guardMessage: 'No.', guardError: 'OWN_REQUEST' }))).toEqual([
      `${PLACE}.guardMessage: a list of guards gives each guard its own message`,
      `${PLACE}.guardError: a list of guards gives each guard its own error`,
    ]);
  });
});
