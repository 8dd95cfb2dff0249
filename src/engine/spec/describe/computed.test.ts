import { describe, expect, it } from 'vitest';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import type { AppSpec } from '../types';

const markdown = describeMarkdown(
  buildModel({
    name: 'visits',
    entities: {
      customer: { fields: { name: { type: 'text' }, account: { type: 'user' } } },
      visit: {
        fields: {
          title: { type: 'text' },
          startsAt: { type: 'datetime' },
          durationMinutes: { type: 'integer', label: 'Duration (minutes)' },
          endsAt: { type: 'datetime', computed: { from: 'startsAt', plus: { minutes: { field: 'durationMinutes' } } } },
          price: { type: 'decimal' },
          net: { type: 'decimal', computed: { subtract: [{ field: 'price' }, { $constant: 'fee' }] } },
          slug: { type: 'text', computed: { slug: 'title' } },
          priority: { type: 'enum', values: ['low', 'high'], default: { $constant: 'usualPriority' } },
          customer: { type: 'reference', to: 'customer', default: { own: 'account' } },
        },
      },
    },
    constants: { fee: { value: 4.95 }, usualPriority: { value: 'low' } },
  } as unknown as AppSpec),
);

/** The field table's row of one field. */
const row = (field: string) => markdown.split('\n').find((line) => line.startsWith(`| \`${field}\``)) ?? '';

describe('the document of computed fields and defaults', () => {
  it('says how each computed field is set, in its inputs’ labels', () => {
    expect(row('endsAt')).toContain(
      'computed by the server: Starts at plus Duration (minutes) minutes; rewritten when Starts at or Duration (minutes) changes',
    );
    expect(row('net')).toContain('Price minus fee (4.95); empty while an input is empty');
    expect(row('slug')).toContain('a slug of Title, unique among the visits');
    expect(row('slug')).toContain('unique');
  });

  it('says each default: a constant with its value, the actor’s own record', () => {
    expect(row('priority')).toContain('low (constant usualPriority)');
    expect(row('customer')).toContain("the creator's own customer (whose account is them), when they have one");
  });
});
