import { describe, expect, it } from 'vitest';
import { testModel } from '@testing/engine/ops';
import { buildModel } from '../build';
import { describeMarkdown } from '../describe';
import { defineApp } from '../define';

describe('the spec document: file fields', () => {
  it("gives the helpdesk's attachments their limits, constants named, accepted types and who downloads them", () => {
    const markdown = describeMarkdown(testModel);
    const point3 = markdown.slice(markdown.indexOf('## 3.'), markdown.indexOf('## 4.'));
    expect(point3).toContain(
      '| `attachments` | files (many) | no |  | at most 5 files (constant `maxAttachments`), each at most 10 MB (constant `maxAttachmentBytes`); accepted types, read from the content: image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain; downloaded only by who may read the ticket and this field (404 otherwise)',
    );
    expect(point3).toContain('Files are uploaded with `POST /api/v1/files` (multipart)');
    expect(point3).toContain('Downloads and uploads need a sign-in.');
  });

  it('says visitors download the files of what the public reads, when it reads a record with files', () => {
    const spec = defineApp({
      name: 'board',
      entities: { notice: { fields: { title: { type: 'text' }, picture: { type: 'file' } } } },
      roles: { public: {} },
      permissions: { notice: { public: { list: true, read: true } } },
    });
    expect(describeMarkdown(buildModel(spec))).toContain(
      'Visitors who are not signed in download the files of the records and fields the public may read, without credentials; uploads need a sign-in.',
    );
  });

  it('says one file, the engine default size and any type for a bare `file` field; nothing of files without one', () => {
    const spec = defineApp({ name: 'docs', entities: { doc: { fields: { title: { type: 'text' }, scan: { type: 'file' } } } } });
    const markdown = describeMarkdown(buildModel(spec));
    expect(markdown).toContain('| `scan` | file | no |  | one file, each at most 25 MB; any type; downloaded only by who may read the doc');
    const plain = defineApp({ name: 'plain', entities: { doc: { fields: { title: { type: 'text' } } } } });
    expect(describeMarkdown(buildModel(plain))).not.toContain('/api/v1/files');
  });
});
