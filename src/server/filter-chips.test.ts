import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import { buildModel } from '@/engine/spec/build';
import type { FilterControl } from '@/ui/list-filters';
import { filterChips } from './filter-chips';
import { parseListParams } from './list-query';

const model = buildModel(helpdesk);
const ticket = model.entitiesByName.ticket!;

/** The controls describeFilters gives an agent, with the values of `raw` (their options shortened). */
function controls(raw: Record<string, string>): FilterControl[] {
  const value = (param: string) => raw[param] ?? '';
  return [
    { param: 'state', label: 'State', kind: 'select', options: [{ value: 'open', label: 'Open' }], value: value('state') },
    {
      param: 'priority',
      label: 'Priority',
      kind: 'select',
      options: [
        { value: 'high', label: 'High' },
        { value: 'urgent', label: 'Urgent' },
      ],
      value: value('priority'),
    },
    { param: 'slaDueAt', label: 'SLA due', kind: 'select', options: [{ value: 'overdue', label: 'Overdue' }], value: value('slaDueAt') },
    // Too many organizations to list: an id.
    { param: 'organization', label: 'Organization', kind: 'id', options: [], value: value('organization') },
    { param: 'assignee', label: 'Assignee', kind: 'select', options: [{ value: '7', label: 'Ada Agent' }], value: value('assignee') },
  ];
}

function chipsOf(raw: Record<string, string>, path = '/tickets') {
  const { params, problem } = parseListParams(ticket, raw);
  expect(problem).toBeNull();
  return filterChips(ticket, controls(raw), path, params);
}

describe('the chips of the active filters', () => {
  it('shows none for a list without filters, whatever its search, sort or columns', () => {
    expect(chipsOf({})).toEqual([]);
    expect(chipsOf({ q: 'printer', sort: '-updatedAt', columns: 'id,subject' })).toEqual([]);
  });

  it('names each active filter by its label and its value’s label, in the spec’s order', () => {
    const chips = chipsOf({ assignee: '7', priority: 'urgent', organization: '42', state: 'open' });
    expect(chips.map((c) => c.text)).toEqual(['State: Open', 'Priority: Urgent', 'Organization: #42', 'Assignee: Ada Agent']);
  });

  it('links each chip to the same list without that filter, at its first page, keeping the rest', () => {
    const chips = chipsOf({
      q: 'printer',
      priority: 'urgent',
      slaDueAt: 'overdue',
      sort: 'slaDueAt',
      columns: 'id,subject',
      cursor: 'abc',
    });
    expect(chips.map((c) => [c.text, c.removeHref])).toEqual([
      ['Priority: Urgent', '/tickets?q=printer&slaDueAt=overdue&sort=slaDueAt&columns=id,subject'],
      ['SLA due: Overdue', '/tickets?q=printer&priority=urgent&sort=slaDueAt&columns=id,subject'],
    ]);
    // The last filter removed: the list as it was without any.
    expect(chipsOf({ priority: 'high' }, '/queue')[0]!.removeHref).toBe('/queue');
  });

  it('shows a value it has no label for as it is, and no chip for a filter the viewer is not offered', () => {
    expect(chipsOf({ priority: 'someday' }).map((c) => c.text)).toEqual(['Priority: someday']);
    const { params } = parseListParams(ticket, { assignee: '7', priority: 'high' });
    const offered = controls({ priority: 'high' }).filter((c) => c.param !== 'assignee');
    expect(filterChips(ticket, offered, '/tickets', params).map((c) => c.text)).toEqual(['Priority: High']);
  });

  it('names the several values of an "any of" filter by their labels', () => {
    const multi: FilterControl = {
      param: 'tags',
      label: 'Tags (any of)',
      kind: 'multi',
      options: [
        { value: '1', label: 'Billing' },
        { value: '2', label: 'Login' },
      ],
      value: '1,2,9',
    };
    const entity = { ...ticket, list: { ...ticket.list, filters: ['tags'] } };
    const params = { sort: '', q: '', cursor: '', filters: { tags: '1,2,9' }, columns: [], view: '' as const };
    expect(filterChips(entity, [multi], '/tickets', params)).toEqual([
      { param: 'tags', text: 'Tags (any of): Billing, Login, 9', removeHref: '/tickets' },
    ]);
  });
});
