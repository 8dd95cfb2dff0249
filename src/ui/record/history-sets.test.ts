import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '@/engine/ops/types';
import { buildModel } from '@/engine/spec/build';
import { describeHistoryEntry } from './history-text';

const article = buildModel({
  name: 'news',
  entities: {
    tag: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    article: { titleField: 'title', fields: { title: { type: 'text', required: true }, tags: { type: 'references', to: 'tag' } } },
  },
}).entitiesByName.article!;
const at = new Date('2025-03-04T14:00:00Z');
const change = (from: number[], to: number[]): HistoryEntry => ({
  id: 1,
  at,
  actor: { id: 7, name: 'Ed' },
  action: 'update',
  changes: { tags: { from, to } },
});

describe('a change of a set in the history', () => {
  it('says what was added and removed, by title, #id when unknown', () => {
    const [line] = describeHistoryEntry(
      article,
      change([1, 2], [2, 3, 9]),
      { tags: { 1: 'Sport', 2: 'News', 3: 'Culture' } },
      'UTC',
      'en-US',
    ).changes;
    expect(line).toEqual({
      field: 'tags',
      label: 'Tags',
      from: 'Sport, News',
      to: 'News, Culture, #9',
      sentence: 'added Culture, #9, removed Sport',
    });
    expect(describeHistoryEntry(article, change([], [3]), { tags: { 3: 'Culture' } }, 'UTC', 'en-US').changes[0]!.sentence).toBe(
      'added Culture',
    );
  });
});
