import { describe, expect, it } from 'vitest';
import { testModel } from '@testing/engine/ops';
import { fieldErrorText, refusalMessage } from './refusal-text';

const ticket = testModel.entitiesByName.ticket!;
const CHECK = 'Some values are not valid. Check the fields marked below.';
const rule = { field: 'dueAt', code: 'dueAfterCreation', message: 'The due time must be in the future.' };

describe('the words of a refusal naming fields a form does not show', () => {
  it('name the field by its label, only where the viewer may read it', () => {
    expect(fieldErrorText(ticket, new Set(['dueAt']), rule)).toBe('Due: The due time must be in the future.');
    const hidden = { field: 'assignee', code: 'urgentNeedsAssignee', message: 'An urgent ticket needs an assignee.' };
    expect(fieldErrorText(ticket, new Set(['dueAt']), hidden)).toBe('An urgent ticket needs an assignee.');
  });

  it('leave out "Check the fields marked below." when nothing is marked, and keep it when something is', () => {
    const refusal = { code: 'VALIDATION_FAILED', message: CHECK };
    const readable = new Set(['dueAt']);
    expect(refusalMessage(ticket, readable, refusal, 0, [rule])).toBe('Due: The due time must be in the future.');
    expect(refusalMessage(ticket, readable, refusal, 1, [rule])).toBe(`${CHECK} Due: The due time must be in the future.`);
    // Any other refusal keeps its own words first.
    expect(
      refusalMessage(ticket, readable, { code: 'TRANSITION_NOT_ALLOWED', message: 'Needs an assignee.' }, 0, [
        { field: 'assignee', code: 'required', message: 'Needs an assignee.' },
      ]),
    ).toBe('Needs an assignee.');
  });
});
