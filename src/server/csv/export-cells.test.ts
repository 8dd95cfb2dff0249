import { describe, expect, it } from 'vitest';
import type { RecordData } from '@/engine/ops/types';
import { buildModel } from '@/engine/spec/build';
import { resolveColumn } from '@/ui/columns';
import { cellText } from './export-cells';

const model = buildModel({
  name: 'news',
  entities: {
    tag: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    article: { titleField: 'title', fields: { title: { type: 'text', required: true }, tags: { type: 'references', to: 'tag' } } },
  },
});
const article = model.entitiesByName.article!;
const record = (tags: readonly number[]): RecordData =>
  ({
    id: 1,
    version: 1,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    createdBy: null,
    updatedBy: null,
    title: 'Hello',
    tags,
  }) as unknown as RecordData;

describe('a references field in a CSV export', () => {
  it('writes the ids joined by ";", which an import reads back, and nothing for none', () => {
    const column = resolveColumn(model, article, 'tags')!;
    expect(cellText(column, record([3, 7]), { tags: { 3: 'News', 7: 'Sport' } })).toBe('3;7');
    expect(cellText(column, record([]), {})).toBe('');
  });
});

describe('a files field in a CSV export', () => {
  it("writes the files' names joined by '; '", () => {
    const withFiles = buildModel({ name: 'docs', entities: { doc: { fields: { title: { type: 'text' }, scans: { type: 'files' } } } } });
    const doc = withFiles.entitiesByName.doc!;
    const column = resolveColumn(withFiles, doc, 'scans')!;
    const row = { ...record([]), scans: [4, 9] } as unknown as RecordData;
    expect(cellText(column, row, { scans: { 4: 'report.pdf', 9: 'shot.png' } })).toBe('report.pdf; shot.png');
  });
});

describe('dates and times in a CSV export', () => {
  it('are ISO 8601, times in UTC to the second, and a passed due time is a time, not "(overdue)"', () => {
    const planned = buildModel({
      name: 'plans',
      entities: {
        task: {
          fields: {
            title: { type: 'text' },
            startsOn: { type: 'date' },
            dueAt: { type: 'datetime', due: { from: 'createdAt', hours: 1 } },
            doneAt: { type: 'datetime' },
          },
        },
      },
    });
    const task = planned.entitiesByName.task!;
    const row = {
      ...record([]),
      createdAt: new Date('2020-01-02T03:04:05.000Z'),
      startsOn: '2020-02-29',
      dueAt: new Date('2020-01-02T04:04:05.000Z'),
      doneAt: new Date('2020-01-02T05:06:07.089Z'),
    } as unknown as RecordData;
    const cell = (name: string) => cellText(resolveColumn(planned, task, name)!, row, {});
    expect(cell('createdAt')).toBe('2020-01-02T03:04:05Z');
    expect(cell('startsOn')).toBe('2020-02-29');
    expect(cell('dueAt')).toBe('2020-01-02T04:04:05Z');
    expect(cell('doneAt')).toBe('2020-01-02T05:06:07.089Z');
  });
});
