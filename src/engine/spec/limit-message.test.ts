import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import publication from '../../../examples/publication/ninefold.spec';
import { buildModel } from './build';
import { describeMarkdown } from './describe';
import { limitMessage } from './limit-message';
import type { AppSpec, LimitSpec } from './types';
import { validateSpec } from './validate';

const constants = { maxOpen: { value: 7 } };

/** The helpdesk with its one limit changed. */
function helpdeskWithLimit(change: Partial<LimitSpec>): AppSpec {
  const ticket = helpdesk.entities.ticket;
  const limit = { ...ticket.limits!.openTicketsPerCustomer, ...change };
  return { ...helpdesk, entities: { ...helpdesk.entities, ticket: { ...ticket, limits: { openTicketsPerCustomer: limit } } } };
}

describe('limitMessage', () => {
  it('writes the maximum, its constant resolved, where the message says {max}, and leaves other text alone', () => {
    expect(limitMessage(constants, 'open', { max: { $constant: 'maxOpen' }, message: 'At most {max} open; you have {max}.' })).toBe(
      'At most 7 open; you have 7.',
    );
    expect(limitMessage(constants, 'open', { max: 3, message: 'Three {max}, no {count}.' })).toBe('Three 3, no {count}.');
  });

  it('follows a message that does not name the maximum with it: whoever is refused learns the number', () => {
    expect(limitMessage(constants, 'open', { max: 3, message: 'No number here.' })).toBe('No number here. At most 3.');
    expect(limitMessage(constants, 'open', { max: { $constant: 'maxOpen' }, message: 'Too many open orders' })).toBe(
      'Too many open orders. At most 7.',
    );
    expect(
      limitMessage(constants, 'open', { max: { field: 'event.capacity' }, message: 'The event is full.' }, "the event's capacity"),
    ).toBe("The event is full. At most the event's capacity.");
  });

  it("says the publication's maximum of drafts per team", () => {
    const model = buildModel(publication);
    const limit = model.entitiesByName.article!.limits.draftsPerTeam!;
    expect(limitMessage(model.constants, 'draftsPerTeam', limit)).toMatch(/\b25\b/);
  });

  it('names the limit and its maximum when the spec gives no message', () => {
    expect(limitMessage(constants, 'openOrdersPerSupplier', { max: { $constant: 'maxOpen' } })).toBe(
      'The limit "Open orders per supplier" allows at most 7; this would be one more.',
    );
  });

  it("gives the helpdesk's customers the limit and what to do, and follows the constant", () => {
    const model = buildModel(helpdesk);
    const limit = model.entitiesByName.ticket!.limits.openTicketsPerCustomer!;
    expect(limitMessage(model.constants, 'openTicketsPerCustomer', limit)).toBe(
      'You have reached the limit of open tickets (20): add to one you already have, or wait until one is resolved.',
    );
    const lower = buildModel({ ...helpdesk, constants: { ...helpdesk.constants, maxOpenTicketsPerCustomer: { value: 5 } } });
    expect(limitMessage(lower.constants, 'openTicketsPerCustomer', limit)).toMatch(/^You have reached the limit of open tickets \(5\)/);
  });
});

describe('the spec check of a limit message', () => {
  const issuesOf = (spec: AppSpec) => validateSpec(spec).map((i) => `${i.path}: ${i.message}`);

  it('accepts {max} and refuses any other placeholder, which would reach the user as written', () => {
    expect(issuesOf(helpdeskWithLimit({ message: 'At most {max}.' }))).toEqual([]);
    expect(issuesOf(helpdeskWithLimit({ message: 'You have {count} of {max}, {MAX}.' }))).toEqual([
      'entities.ticket.limits.openTicketsPerCustomer.message: unknown placeholder "{count}" (a limit\'s message may use {max})',
      'entities.ticket.limits.openTicketsPerCustomer.message: unknown placeholder "{MAX}" (a limit\'s message may use {max})',
    ]);
  });
});

describe('/spec', () => {
  it('shows the message a refusal says, the maximum written in', () => {
    const markdown = describeMarkdown(buildModel(helpdeskWithLimit({ message: 'No more than {max} at once.' })));
    expect(markdown).toContain('| agent, admin | No more than 20 at once. |');
    const byDefault = describeMarkdown(buildModel(helpdeskWithLimit({ message: undefined })));
    expect(byDefault).toContain('| agent, admin | The limit "Open tickets per customer" allows at most 20; this would be one more. |');
  });
});
