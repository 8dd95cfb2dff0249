import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import crm from '../../examples/crm/ninefold.spec';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import { openTestEngine } from '@testing/api/api';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import { forEachDatabase } from '@testing/engine/store';
import { navigationFor } from './navigation';

vi.mock('server-only', () => ({}));

const actor = (...roles: string[]): Actor => ({ userId: 1, email: 'someone@example.com', name: 'Someone', roles });

/** The labels of the actor's navigation, with an engine over `spec` on the suite's database. */
function navigationSuite(name: string, spec: AppSpec, cases: (labels: (who: Actor) => Promise<string[]>) => void): void {
  forEachDatabase(name, (database) => {
    let engine: Engine;
    beforeAll(async () => {
      engine = await openTestEngine(database, buildModel(spec));
    });
    afterAll(() => engine?.close());
    cases(async (who) => (await navigationFor(engine, who)).map((entry) => entry.label));
  });
}

describe('navigationFor: each user sees what they use', () => {
  navigationSuite('the helpdesk', helpdesk, (labels) => {
    it('gives a customer a portal: their tickets; comments come through the tickets, the documents are not theirs', async () => {
      expect(await labels(actor('customer'))).toEqual(['Tickets']);
    });

    it('gives an agent the desk, and an administrator the documents and the users besides', async () => {
      expect(await labels(actor('agent'))).toEqual(['My queue', 'Tickets', 'Organizations', 'Comments']);
      expect(await labels(actor('admin'))).toEqual(['My queue', 'Tickets', 'Organizations', 'Comments', 'Spec', 'API', 'Users']);
      // Roles combine: an agent who is also a customer lists every comment.
      expect(await labels(actor('customer', 'agent'))).toContain('Comments');
    });
  });

  navigationSuite(
    'the helpdesk with its documents open to agents',
    { ...helpdesk, screens: { ...helpdesk.screens, documentation: { roles: ['agent'] } } },
    (labels) => {
      it('opens the documents to the roles of screens.documentation, and to them only', async () => {
        expect(await labels(actor('agent'))).toEqual(['My queue', 'Tickets', 'Organizations', 'Comments', 'Spec', 'API']);
        expect(await labels(actor('admin'))).not.toContain('Spec');
        expect(await labels(actor('customer'))).toEqual(['Tickets']);
      });
    },
  );

  // Notes in the navigation too: a salesperson lists them only through their deals (`via: 'deal'`).
  navigationSuite(
    'the CRM with notes in the navigation',
    { ...crm, screens: { ...crm.screens, navigation: ['deal', 'company', 'contact', 'note'] } },
    (labels) => {
      it('derives the same for another spec: a salesperson meets notes on their deals, a manager lists them all', async () => {
        expect(await labels(actor('sales'))).toEqual(['My deals', 'Deals', 'Companies', 'Contacts']);
        expect(await labels(actor('manager'))).toEqual(['My deals', 'Deals', 'Companies', 'Contacts', 'Notes']);
      });
    },
  );
});
