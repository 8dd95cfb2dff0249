import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from './build';
import { describeMarkdown } from './describe';
import type { AppSpec, TransitionSpec } from './types';
import { validateSpec } from './validate';

const PATH = 'workflows.ticket.transitions.close';
const CLOSE = helpdesk.workflows!.ticket.transitions.close;

/** The helpdesk with its `close` transition changed. */
function withClose(changes: Record<string, unknown>): AppSpec {
  const workflow = helpdesk.workflows!.ticket;
  const close = { ...CLOSE, ...changes } as unknown as TransitionSpec;
  return { ...helpdesk, workflows: { ...helpdesk.workflows, ticket: { ...workflow, transitions: { ...workflow.transitions, close } } } };
}

const issuesOf = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);

describe('automatic transitions in the spec', () => {
  it("the helpdesk's close is due 14 days (autoCloseDays) after resolvedAt", () => {
    const close = buildModel(helpdesk).entitiesByName.ticket!.workflow!.transitions.find((t) => t.name === 'close')!;
    expect(close.auto).toEqual({
      field: 'resolvedAt',
      column: 'resolved_at',
      side: 'after',
      duration: { amount: 14, unit: 'days', constant: 'autoCloseDays', seconds: 14 * 86_400 },
      offsetSeconds: 14 * 86_400,
      workingDays: null,
    });
  });

  it('before a field is a negative offset; no duration is the time itself', () => {
    const before = buildModel(withClose({ auto: { before: 'dueAt', hours: 24 } })).entitiesByName.ticket!.workflow!.transitions.find(
      (t) => t.name === 'close',
    )!;
    expect(before.auto).toMatchObject({ side: 'before', offsetSeconds: -24 * 3600 });
    const at = buildModel(withClose({ auto: { after: 'dueAt' } })).entitiesByName.ticket!.workflow!.transitions.find(
      (t) => t.name === 'close',
    )!;
    expect(at.auto).toMatchObject({ duration: null, offsetSeconds: 0 });
  });

  it.each([
    [{ auto: {} }, `${PATH}.auto: needs exactly one of "after" and "before"`],
    [{ auto: { after: 'resolvedAt', before: 'dueAt' } }, `${PATH}.auto: needs exactly one of "after" and "before"`],
    [{ auto: { after: 'subject' } }, `${PATH}.auto.after: "subject" is not a date or datetime of ticket`],
    [{ auto: { after: 'resolvedAt', days: 1, hours: 2 } }, `${PATH}.auto: give the duration in one unit, not hours, days`],
    [{ auto: { after: 'resolvedAt', days: -1 } }, `${PATH}.auto.days: must be a number ≥ 0 of days or { $constant } naming one, got -1`],
    [{ auto: { after: 'resolvedAt', days: { $constant: 'nope' } } }, `${PATH}.auto.days.$constant: unknown constant "nope"`],
    [{ auto: { after: 'resolvedAt', weeks: 2 } }, `${PATH}.auto.weeks: unknown key`],
    [{ auto: { after: 'resolvedAt' }, to: 'resolved' }, `${PATH}.to: an automatic transition cannot lead back to "resolved"`],
    [
      { auto: { after: 'resolvedAt' }, effects: [{ set: 'assignee', to: 'actor' }] },
      `${PATH}.effects[0].to: "actor" is the user who takes`,
    ],
    [
      { auto: { after: 'resolvedAt' }, guard: { field: 'assignee', op: 'eq', value: { actor: 'id' } } },
      `${PATH}.guard.value: { actor: "id" } (the signed-in user) cannot be used here`,
    ],
    [{ allow: [], auto: undefined }, `${PATH}.allow: a transition needs a non-empty list of who may take it`],
  ])('%j is refused with its place', (changes, expected) => {
    const issues = issuesOf(withClose(changes));
    expect(issues.some((issue) => issue.startsWith(expected))).toBe(true);
  });

  it('an automatic transition may be the scheduler’s alone (nobody in allow)', () => {
    expect(issuesOf(withClose({ allow: [], auto: { after: 'resolvedAt', days: 3 } }))).toEqual([]);
  });

  it('the document says when it is taken, and how', () => {
    const text = describeMarkdown(buildModel(helpdesk));
    expect(text).toContain('agent, admin, automatically, 14 days (autoCloseDays) after resolvedAt');
    expect(text).toContain('An automatic transition is taken by the system');
  });
});
