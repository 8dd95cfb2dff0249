import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import { buildModel } from '@/engine/spec/build';
import { ColumnValue } from './cell-value';
import { resolveColumn } from './columns';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket!;
const NOW = new Date('2030-01-01T00:00:00Z');

/** One list cell of a ticket, as the table and the phone card render it. */
function cell(name: string, value: string, variant: 'cell' | 'detail' = 'cell'): string {
  const column = resolveColumn(model, ticket, name);
  if (!column) throw new Error(`no column ${name}`);
  return renderToStaticMarkup(
    createElement(ColumnValue, {
      column,
      record: { id: 1, version: 1, createdAt: NOW, updatedAt: NOW, [name]: value },
      references: {},
      variant,
      zone: 'UTC',
      locale: 'en-US',
    }),
  );
}

/** The classes of the one badge in a cell's markup, without its tone's colour classes. */
function badgeShape(html: string): string {
  const classes = /^<span class="([^"]+)">[^<]*<\/span>$/.exec(html)?.[1];
  if (!classes) throw new Error(`not a badge: ${html}`);
  return classes
    .split(' ')
    .filter((c) => !/^(bg|text|ring)-[a-z]+-\d+/.test(c))
    .join(' ');
}

describe('an enum value in a list cell or on a record page', () => {
  it('reads as its label in its colour’s badge', () => {
    const html = cell('priority', 'urgent');
    expect(html).toContain('>Urgent</span>');
    expect(html).toContain('bg-red-50');
    expect(html).toContain('text-red-700');
    expect(cell('priority', 'high')).toContain('bg-orange-50');
    expect(cell('priority', 'urgent', 'detail')).toBe(html);
  });

  it('is the same badge as a workflow state, in another tone', () => {
    expect(badgeShape(cell('priority', 'urgent'))).toBe(badgeShape(cell('state', 'open')));
  });

  it('is plain text when the spec gives its value no colour', () => {
    expect(cell('priority', 'normal')).toBe('<span>Normal</span>');
  });

  it('shows a value the spec no longer declares as it is, without a badge', () => {
    expect(cell('priority', 'critical')).toBe('<span>critical</span>');
  });
});
