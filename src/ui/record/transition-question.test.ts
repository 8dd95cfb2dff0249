import { describe, expect, it } from 'vitest';
import crm from '../../../examples/crm/ninefold.spec';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import { bulkFinalTransitionQuestion, finalTarget, finalTransitionQuestion } from './transition-question';

const ticket = buildModel(helpdesk).entitiesByName.ticket!;
const deal = buildModel(crm).entitiesByName.deal!;

describe('the question before a transition into a final state', () => {
  it('is asked exactly for the transitions whose target state is final, in every workflow', () => {
    expect(ticket.workflow!.transitions.filter((t) => finalTarget(ticket.workflow!, t.name)).map((t) => t.name)).toEqual(['close']);
    expect(deal.workflow!.transitions.filter((t) => finalTarget(deal.workflow!, t.name)).map((t) => t.name)).toEqual(['win', 'lose']);
    expect(finalTarget(ticket.workflow!, 'resolve')).toBeNull();
    expect(finalTarget(ticket.workflow!, 'teleport')).toBeNull();
    expect(finalTransitionQuestion(ticket, 'resolve', 12)).toBeNull();
    expect(bulkFinalTransitionQuestion(ticket, 'start')).toBeNull();
  });

  it("names the transition, the record and what becomes of it, from the spec's labels", () => {
    expect(finalTransitionQuestion(ticket, 'close', 12)).toEqual({
      title: 'Close ticket #12?',
      description: 'A closed ticket can no longer be changed.',
      confirmLabel: 'Close',
    });
    expect(finalTransitionQuestion(deal, 'lose', 7)).toEqual({
      title: 'Mark lost deal #7?',
      description: 'A lost deal can no longer be changed.',
      confirmLabel: 'Mark lost',
    });
    expect(bulkFinalTransitionQuestion(deal, 'win')).toEqual({
      title: 'Mark won the selected deals?',
      description: 'A won deal can no longer be changed.',
      confirmLabel: 'Mark won',
    });
  });

  it('reads right for names a spec author chooses: articles by sound, initialisms kept', () => {
    const spec: AppSpec = {
      name: 'orders',
      entities: { order: { label: 'Order', fields: { title: { type: 'text' } } } },
      workflows: {
        order: {
          states: {
            draft: { label: 'Draft', initial: true },
            archived: { label: 'Archived', final: true },
            done: { label: 'QA passed', final: true },
          },
          transitions: {
            archive: { label: 'Archive', from: 'draft', to: 'archived', allow: ['admin'] },
            pass: { label: 'Pass QA', from: 'draft', to: 'done', allow: ['admin'] },
          },
        },
      },
      roles: { admin: { label: 'Administrator' } },
      permissions: { order: { admin: { list: true, read: true, create: true, update: true } } },
    };
    const order = buildModel(spec).entitiesByName.order!;
    expect(finalTransitionQuestion(order, 'archive', 3)?.description).toBe('An archived order can no longer be changed.');
    expect(finalTransitionQuestion(order, 'pass', 3)).toMatchObject({
      title: 'Pass QA order #3?',
      description: 'A QA passed order can no longer be changed.',
    });
  });
});
