import { describe, expect, it } from 'vitest';
import { buildModel } from '@/engine/spec/build';
import { describeMarkdown } from '@/engine/spec/describe';
import { approvals } from '@/engine/workflow/guards.fixture';
import { buildOpenApiDocument } from './document';

/** A transition with several guards, as the documents tell it: /spec in words, OpenAPI by its codes. */
const model = buildModel(approvals);

describe('the guards of a transition in the documents', () => {
  it('/spec prints each guard in words, in order, with its code and message', () => {
    expect(describeMarkdown(model)).toContain(
      'Guards are checked in the order listed: the first that fails refuses the transition, with its code and message.',
    );
    expect(describeMarkdown(model)).toContain(
      '| Approve (`approve`) | submitted | approved | manager | only when author is not you, else `OWN_REQUEST` ("You cannot approve your own request."); only when amount is at most approvalLimit, else `OVER_APPROVAL_LIMIT` | — |',
    );
  });

  it('OpenAPI documents each guard’s code under its status, and the guards in the description', () => {
    const approve = buildOpenApiDocument(model).paths['/expenses/{id}/transitions/approve']!.post!;
    expect(approve.responses['403']!['x-error-codes']).toContain('OWN_REQUEST');
    expect(approve.responses['409']!['x-error-codes']).toContain('OVER_APPROVAL_LIMIT');
    expect(approve.description).toContain(
      'Guards, checked in order (the first that fails answers): only when author is not you, else `OWN_REQUEST` ("You cannot approve your own request."); only when amount is at most approvalLimit, else `OVER_APPROVAL_LIMIT`.',
    );
  });
});
