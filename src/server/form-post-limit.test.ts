import { describe, expect, it } from 'vitest';
import crm from '../../examples/crm/ninefold.spec';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import publication from '../../examples/publication/ninefold.spec';
import seed from '../../examples/seed/ninefold.spec';
import { FORM_FILES_CEILING_BYTES, FORM_POST_CEILING_BYTES } from '@/api/action-body.mjs';
import { defineApp } from '@/engine/spec/define';
import { buildModel } from '@/engine/spec/build';
import { formPostLimit } from './form-post-limit';

/*
 * The largest body a form of a spec can post to a server action (what scripts/server.mjs reads
 * before refusing): 256 KiB for everything that is not a record's values, plus eight copies of the
 * largest record (each text character at most 4 bytes, any other value 256), at most the ceiling
 * that Next.js's own limit is set to.
 */
const FRAMING = 256 * 1024;
const notes = (fields: Record<string, unknown>, constants = {}) =>
  buildModel(
    defineApp({
      name: 'notes',
      roles: { admin: {} },
      entities: { note: { fields } },
      permissions: { note: { admin: { list: true, read: true, create: true } } },
      constants,
    } as never),
  );

describe('the largest form post of a spec', () => {
  it('follows the longest record: its texts’ maxLength, its other fields', () => {
    expect(formPostLimit(notes({ title: { type: 'text', maxLength: 100 } }))).toBe(FRAMING + 8 * 100 * 4);
    expect(
      formPostLimit(
        notes({ title: { type: 'text', maxLength: 100 }, body: { type: 'markdown', maxLength: 10_000 }, due: { type: 'date' } }),
      ),
    ).toBe(FRAMING + 8 * (10_100 * 4 + 256));
  });

  it('counts a text without maxLength as long as the API takes in one body, within the ceiling', () => {
    expect(formPostLimit(notes({ body: { type: 'markdown' } }, { apiMaxBodyBytes: { value: 100_000 } }))).toBe(FRAMING + 8 * 100_000);
    expect(formPostLimit(notes({ body: { type: 'markdown' } }))).toBe(FORM_POST_CEILING_BYTES);
  });

  it('is the framing alone for a spec without records, and under 2 MiB for the examples', () => {
    expect(formPostLimit(buildModel(seed))).toBe(FRAMING);
    for (const spec of [helpdesk, crm, publication]) {
      // The helpdesk's attachments add their files once: 5 of at most 10 MB.
      const files = spec === helpdesk ? 5 * 10_000_000 : 0;
      const limit = formPostLimit(buildModel(spec)) - files;
      expect(limit, spec.name).toBeGreaterThan(FRAMING);
      expect(limit, spec.name).toBeLessThan(2 * 1024 * 1024);
    }
  });
});

describe('the files of a form post', () => {
  it("add each file field's maxItems x maxBytes once, within their own ceiling", () => {
    expect(formPostLimit(notes({ scans: { type: 'files', maxItems: 3, maxBytes: 1000 } }))).toBe(FRAMING + 8 * 3 * 24 + 3000);
    expect(formPostLimit(notes({ scans: { type: 'files', maxItems: 100, maxBytes: 2_000_000_000 } }))).toBe(
      FRAMING + 8 * 100 * 24 + FORM_FILES_CEILING_BYTES,
    );
  });
});
