import { describe, expect, it } from 'vitest';
import { matchScore, rankByMatch } from './match';

describe('matchScore', () => {
  it('matches every item when nothing is typed', () => {
    expect(matchScore('Tickets', '')).toBe(0);
    expect(matchScore('Tickets', '   ')).toBe(0);
  });

  it('matches word starts, then any part, ignoring case and accents', () => {
    expect(matchScore('My queue', 'que')).not.toBeNull();
    expect(matchScore('Organizations', 'ORG')).not.toBeNull();
    expect(matchScore('Café orders', 'cafe')).not.toBeNull();
    expect(matchScore('Organizations', 'zati')).not.toBeNull();
    expect(matchScore('Tickets', 'org')).toBeNull();
  });

  it('needs every typed word', () => {
    expect(matchScore('Tickets › Urgent ones', 'tick urg')).not.toBeNull();
    expect(matchScore('Tickets › Urgent ones', 'tick low')).toBeNull();
  });

  it('ranks a label that starts with the query above one where a later word does', () => {
    expect(matchScore('Spec', 'spec')!).toBeGreaterThan(matchScore('The spec', 'spec')!);
    expect(matchScore('The spec', 'spec')!).toBeGreaterThan(matchScore('Inspections', 'spec')!);
  });
});

describe('rankByMatch', () => {
  it('keeps the matching items, best first, ties in their order', () => {
    const items = ['Home', 'API', 'Comments', 'Companies', 'My companies'];
    expect(rankByMatch(items, (s) => s, 'com')).toEqual(['Comments', 'Companies', 'My companies']);
    expect(rankByMatch(items, (s) => s, '')).toEqual(items);
    expect(rankByMatch(items, (s) => s, 'zzz')).toEqual([]);
  });
});
