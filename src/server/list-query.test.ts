import { describe, expect, it } from 'vitest';
import { testModel } from '@/engine/ops/testing';
import { parseListParams } from './list-query';

const ticket = testModel.entitiesByName.ticket;

describe('parseListParams', () => {
  it('reads the same parameters the same way on every call (the schema is built once per entity)', () => {
    const raw = { sort: '-dueAt', q: ['billing', 'ignored'], priority: 'high', unknown: 'x' };
    const first = parseListParams(ticket, raw);
    expect(first).toEqual({ params: { sort: '-dueAt', q: 'billing', cursor: '', filters: { state: '', priority: 'high', slaDueAt: '', organization: '', assignee: '' } }, problem: null });
    expect(parseListParams(ticket, raw)).toEqual(first);
    expect(parseListParams(ticket, {}).params).toEqual({ sort: '', q: '', cursor: '', filters: { state: '', priority: '', slaDueAt: '', organization: '', assignee: '' } });
  });

  it('still refuses values that are too long, per entity', () => {
    expect(parseListParams(ticket, { q: 'x'.repeat(201) }).problem).toBe('The search is too long (200 characters at most).');
    expect(parseListParams(ticket, { priority: 'x'.repeat(201) }).problem).toBe('The priority filter is too long.');
    const organization = testModel.entitiesByName.organization;
    expect(parseListParams(organization, { priority: 'x'.repeat(201) }).problem).toBeNull();
  });
});
