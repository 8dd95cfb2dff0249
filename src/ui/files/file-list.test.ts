import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FileList } from './file-list';
import type { ShownFiles } from './shown-file';

const files: ShownFiles = {
  7: { id: 7, name: 'report.pdf', sizeText: '12 kB', url: '/api/v1/files/7' },
  8: {
    id: 8,
    name: 'screen.png',
    sizeText: '1.5 MB',
    url: '/api/v1/files/8',
    thumbnail: { url: '/api/v1/files/8/thumbnail', width: 320, height: 180 },
  },
};
const render = (ids: readonly number[]) => renderToStaticMarkup(createElement(FileList, { ids, files }));

describe('a field’s files on a page', () => {
  it('names each file with its size and a download link', () => {
    const html = render([7]);
    expect(html).toContain('<a href="/api/v1/files/7" download="report.pdf"');
    expect(html).toContain('>report.pdf</a>');
    expect(html).toContain('(12 kB)');
    expect(html).not.toContain('<img');
  });

  it('shows an image by its thumbnail, sized and named, linking to the original', () => {
    const html = render([8]);
    expect(html).toMatch(
      /<a href="\/api\/v1\/files\/8"[^>]*><img src="\/api\/v1\/files\/8\/thumbnail" alt="screen.png" width="320" height="180"/,
    );
  });

  it('shows nothing for ids it has no descriptor for (a file gone, or not for this viewer)', () => {
    expect(render([9])).toBe('');
    expect(render([9, 7])).toContain('report.pdf');
  });
});
