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
    expect(cellText(column, record([3, 7]), { tags: { 3: 'News', 7: 'Sport' } }, new Date())).toBe('3;7');
    expect(cellText(column, record([]), {}, new Date())).toBe('');
  });
});

describe('a files field in a CSV export', () => {
  it("writes the files' names joined by '; '", () => {
    const withFiles = buildModel({ name: 'docs', entities: { doc: { fields: { title: { type: 'text' }, scans: { type: 'files' } } } } });
    const doc = withFiles.entitiesByName.doc!;
    const column = resolveColumn(withFiles, doc, 'scans')!;
    const row = { ...record([]), scans: [4, 9] } as unknown as RecordData;
    expect(cellText(column, row, { scans: { 4: 'report.pdf', 9: 'shot.png' } }, new Date())).toBe('report.pdf; shot.png');
  });
});
