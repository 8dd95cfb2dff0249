import { describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '@/engine/spec/build';
import { listColumns } from '../columns';
import { columnFitStyle, columnWidth, hiddenColumns, truncation } from './column-fit';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket!;
const everything = new Set([...Object.keys(ticket.fieldsByName), 'state', 'id', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);
const { columns, linkColumn } = listColumns(model, ticket, everything);

/** The columns a table region of `width` rem shows, by the rules' thresholds. */
function shownAt(width: number, selectable = true): string[] {
  const hidden = new Set(
    hiddenColumns(columns, linkColumn, selectable)
      .filter((h) => width < h.below)
      .map((h) => h.name),
  );
  return columns.map((c) => c.name).filter((name) => !hidden.has(name));
}

describe('a record table that fits its width', () => {
  it('keeps the spec’s order as the priority: at 1280 px (a 1102 px region) the helpdesk tickets show their first six columns', () => {
    expect(columns.map((c) => c.name)).toEqual(ticket.list.columns);
    expect(shownAt(1102 / 16)).toEqual(['id', 'subject', 'state', 'priority', 'slaDueAt', 'requester']);
    // What is shown never adds up to more than the region.
    const width = (names: string[]) => 2 + columns.filter((c) => names.includes(c.name)).reduce((sum, c) => sum + columnWidth(c), 0);
    expect(width(shownAt(1102 / 16))).toBeLessThanOrEqual(1102 / 16);
    expect(width(shownAt(50))).toBeLessThanOrEqual(50);
  });

  it('hides from the right as the region narrows, and never the link column', () => {
    const wide = shownAt(200);
    expect(wide).toEqual(ticket.list.columns);
    let previous = wide.length;
    for (let width = 200; width >= 10; width -= 2) {
      const shown = shownAt(width);
      expect(shown.length).toBeLessThanOrEqual(previous);
      expect(shown).toContain('subject');
      expect(shown).toEqual(ticket.list.columns.filter((name) => shown.includes(name)));
      previous = shown.length;
    }
    expect(shownAt(10)).toEqual(['subject']);
  });

  it('counts the checkbox cell in each rule’s place among the cells', () => {
    const withBoxes = hiddenColumns(columns, linkColumn, true);
    const without = hiddenColumns(columns, linkColumn, false);
    expect(withBoxes.find((h) => h.name === 'id')?.child).toBe(2);
    expect(without.find((h) => h.name === 'id')?.child).toBe(1);
    expect(withBoxes.find((h) => h.name === 'updatedAt')?.child).toBe(12);
    // The checkbox takes room: each column goes a little sooner.
    expect(withBoxes.every((h, i) => h.below > without[i]!.below)).toBe(true);
  });

  it('writes one scoped rule per column, shared by tables with the same columns, and only for table layouts', () => {
    const fit = columnFitStyle(columns, linkColumn, true)!;
    expect(fit.scope).toMatch(/^nf-fit-[0-9a-z]+$/);
    expect(fit.css.startsWith('@media (width>=40rem){')).toBe(true);
    expect(fit.css.match(/@container/g)).toHaveLength(columns.length - 1);
    expect(fit.css).toContain(`.${fit.scope} :is(th,td):nth-child(7){display:none}`);
    expect(columnFitStyle(columns, linkColumn, true)).toEqual(fit);
    expect(columnFitStyle(columns.slice(0, 4), linkColumn, true)!.scope).not.toBe(fit.scope);
    // A table of its link column alone has nothing to hide.
    expect(
      columnFitStyle(
        columns.filter((c) => c.name === linkColumn),
        linkColumn,
        false,
      ),
    ).toBeNull();
  });

  it('cuts long text at a line’s width and names at a name’s, and nothing else', () => {
    const cut = Object.fromEntries(columns.map((c) => [c.name, truncation(c)]));
    expect(cut).toMatchObject({
      subject: 'text',
      requester: 'name',
      assignee: 'name',
      organization: 'name',
      state: null,
      priority: null,
      slaDueAt: null,
      replyCount: null,
      id: null,
    });
  });
});
