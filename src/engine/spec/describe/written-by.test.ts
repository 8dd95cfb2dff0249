import { describe, expect, it } from 'vitest';
import { ledgerSpec } from '@testing/engine/call-door';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';

const markdown = describeMarkdown(buildModel(ledgerSpec));

/** The Markdown of one point, from its heading to the next point's. */
function point(number: number): string {
  const start = markdown.indexOf(`\n## ${number}. `);
  const end = markdown.indexOf(`\n## ${number + 1}. `);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe('the document of a spec with what only calls write', () => {
  it('lists the calls that could write each, under point 7', () => {
    const calls = point(7);
    expect(calls).toContain('### Written only by calls');
    expect(calls).toContain(
      "- Payments are written only by the spec's calls and workflow effects; the pages, imports and the record API read them only (a write there is 405), and the create, update and delete grants of point 6 say who may write them through calls. Calls that could: `POST /api/v1/accounts/{id}/pay`, `POST /api/v1/payments/{id}/amend`, `POST /api/v1/payments/{id}/void`, `POST /api/v1/payments/{id}/stamp`, `GET /api/v1/ledger/access`.",
    );
    expect(calls).toContain(
      "- `account.balance`: written only by the spec's calls, workflow effects and the default; forms, imports and the record API cannot set it.",
    );
  });

  it('says so with the entity and the field (point 3), the pages (point 2) and the grants (point 6)', () => {
    expect(point(3)).toContain("written only by the spec's calls and workflow effects (point 7)");
    expect(point(3)).toMatch(/\| `balance` \| integer \| yes \| 0 \| written only by the spec's calls and workflow effects \|/);
    const screens = point(2);
    expect(screens).not.toContain('`/payments/new`');
    expect(screens).not.toContain('`/payments/import`');
    expect(screens).toContain("no Edit or Delete: the spec's calls write it");
    // The account's forms leave the balance out.
    expect(screens).toMatch(/`\/accounts\/new` \| New \| Form to create an account: Name, Note \|/);
    expect(point(6)).toContain(
      "Payments are written only by the spec's calls (point 7): Create, Update and Delete say who may write them through a call.",
    );
  });
});
