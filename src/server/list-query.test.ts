import { describe, expect, it } from 'vitest';
import { testModel } from '@testing/engine/ops';
import { buildModel } from '@/engine/spec/build';
import { resolveColumn } from '@/ui/columns';
import {
  cleanListAddress,
  COLUMN_FORM,
  listAddress,
  listStateOf,
  paramsOfState,
  parseListParams,
  type RawSearchParams,
} from './list-query';

const ticket = testModel.entitiesByName.ticket!;

describe('parseListParams', () => {
  it('reads the same parameters the same way on every call (the schema is built once per entity)', () => {
    const raw = { sort: '-dueAt', q: ['billing', 'ignored'], priority: 'high', unknown: 'x' };
    const first = parseListParams(ticket, raw);
    expect(first).toEqual({
      params: {
        sort: '-dueAt',
        q: 'billing',
        cursor: '',
        filters: { state: '', priority: 'high', slaDueAt: '', organization: '', assignee: '' },
        columns: [],
        view: '',
      },
      problem: null,
    });
    expect(parseListParams(ticket, raw)).toEqual(first);
    expect(parseListParams(ticket, {}).params).toEqual({
      sort: '',
      q: '',
      cursor: '',
      filters: { state: '', priority: '', slaDueAt: '', organization: '', assignee: '' },
      columns: [],
      view: '',
    });
    // How the list is shown is part of its address; anything but a table or a board is refused.
    expect(parseListParams(ticket, { view: 'board' }).params.view).toBe('board');
    expect(listAddress('/tickets', { ...parseListParams(ticket, { view: 'table' }).params, sort: 'id' })).toBe(
      '/tickets?sort=id&view=table',
    );
    expect(parseListParams(ticket, { view: 'chart' }).problem).toBe('A list is shown as a table (view=table) or a board (view=board).');
  });

  it('still refuses values that are too long, per entity', () => {
    expect(parseListParams(ticket, { q: 'x'.repeat(201) }).problem).toBe('The search is too long (200 characters at most).');
    expect(parseListParams(ticket, { priority: 'x'.repeat(201) }).problem).toBe('The priority filter is too long.');
    const organization = testModel.entitiesByName.organization!;
    expect(parseListParams(organization, { priority: 'x'.repeat(201) }).problem).toBeNull();
  });
});

describe('names every object inherits in a list address (constructor, __proto__...)', () => {
  const inherited = Object.getOwnPropertyNames(Object.prototype);

  it('reads them as parameters the list does not have, and as columns it does not have', () => {
    const raw: RawSearchParams = Object.fromEntries([
      ...inherited.map((name) => [name, 'x']),
      ['columns', inherited.join(',')],
      ['sort', '-constructor'],
    ]);
    const { params, problem } = parseListParams(ticket, raw);
    expect(problem).toBeNull();
    expect(params.filters).toEqual({ state: '', priority: '', slaDueAt: '', organization: '', assignee: '' });
    // Kept as asked (the address is the list's state); the table shows none of them.
    expect(params.columns).toEqual(inherited);
    for (const name of inherited) expect(resolveColumn(testModel, ticket, name), name).toBeNull();
  });
});

describe('the address of a list', () => {
  const defaults = ticket.list.columns;

  it('holds the columns in their order, without blanks or repeats, and gives them back in the address', () => {
    const { params } = parseListParams(ticket, { columns: ' subject,,state ,subject,priority', q: 'x', cursor: 'abc' });
    expect(params.columns).toEqual(['subject', 'state', 'priority']);
    expect(listAddress('/tickets', params)).toBe('/tickets?q=x&columns=subject,state,priority&cursor=abc');
    expect(parseListParams(ticket, { columns: 'x'.repeat(2001) }).problem).toBe('The list of columns is too long.');
  });

  it('keeps a list state without its page, and opens it at the first page', () => {
    const { params } = parseListParams(ticket, {
      state: 'open',
      q: ' printer ',
      sort: '-priority',
      columns: 'subject,state',
      cursor: 'abc',
    });
    const state = listStateOf(params);
    expect(state).toEqual({ filters: { state: 'open' }, q: 'printer', sort: '-priority', columns: ['subject', 'state'] });
    expect(listAddress('/tickets', paramsOfState(state))).toBe('/tickets?q=printer&state=open&sort=-priority&columns=subject,state');
  });

  it('leaves a clean address as it is', () => {
    expect(cleanListAddress('/tickets', {}, defaults)).toBeNull();
    expect(cleanListAddress('/tickets', { q: 'x', state: 'open', columns: 'subject,state', unknown: 'kept' }, defaults)).toBeNull();
  });

  it('drops the empty fields a form sent without JavaScript', () => {
    const sent: RawSearchParams = { q: '', state: 'open', priority: '', organization: '  ', sort: '-priority' };
    expect(cleanListAddress('/tickets', sent, defaults)).toBe('/tickets?state=open&sort=-priority');
    expect(cleanListAddress('/queue', { q: '', state: '' }, defaults)).toBe('/queue');
  });

  it('turns the column chooser form into columns=, applying its move and leaving the page', () => {
    const form = (move?: string): RawSearchParams => ({
      q: 'x',
      cursor: 'abc',
      columns: 'old',
      [COLUMN_FORM.order]: ['subject', 'state', 'priority', 'assignee'],
      [COLUMN_FORM.show]: ['subject', 'state', 'priority'],
      ...(move ? { [COLUMN_FORM.move]: move } : {}),
    });
    expect(cleanListAddress('/tickets', form(), defaults)).toBe('/tickets?q=x&columns=subject,state,priority');
    expect(cleanListAddress('/tickets', form('priority:up'), defaults)).toBe('/tickets?q=x&columns=subject,priority,state');
    expect(cleanListAddress('/tickets', form('subject:down'), defaults)).toBe('/tickets?q=x&columns=state,subject,priority');
    // Moves past either end change nothing.
    expect(cleanListAddress('/tickets', form('subject:up'), defaults)).toBe('/tickets?q=x&columns=subject,state,priority');
    // The list's own columns, or none ticked, need no parameter.
    expect(cleanListAddress('/tickets', { [COLUMN_FORM.order]: [...defaults], [COLUMN_FORM.show]: [...defaults] }, defaults)).toBe(
      '/tickets',
    );
    expect(cleanListAddress('/tickets', { [COLUMN_FORM.order]: ['subject'] }, defaults)).toBe('/tickets');
  });
});

describe('a references filter ("has any of")', () => {
  const article = buildModel({
    name: 'news',
    entities: {
      tag: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
      article: { titleField: 'title', fields: { title: { type: 'text', required: true }, tags: { type: 'references', to: 'tag' } } },
    },
    screens: { lists: { article: { columns: ['title', 'tags'], filters: ['tags'] } } },
  }).entitiesByName.article!;

  it('joins the values of a multiple select, as the address writes them', () => {
    expect(parseListParams(article, { tags: ['3', '', '7'] }).params.filters).toEqual({ tags: '3,7' });
    expect(parseListParams(article, { tags: '3,7' }).params.filters).toEqual({ tags: '3,7' });
  });
});
