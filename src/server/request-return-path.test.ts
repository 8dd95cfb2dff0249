import { describe, expect, it } from 'vitest';
import { safeNextPath } from './auth-input';
import { safeReturnPath } from './request-return-path';

describe('the return path after signing in', () => {
  it.each([
    '/',
    '/tickets',
    '/tickets/12/edit',
    '/tickets?status=open&sort=-createdAt',
    '/tickets?q=a%2Fb',
    '/tickets?q=caf%C3%A9',
    '/spec#roles',
    '/my-tickets?columns=title,status',
    '/a/../b',
  ])('keeps the path of this site %j as given', (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  it.each([
    '//evil.com',
    '/\\evil.com',
    '\\/evil.com',
    '\\\\evil.com',
    'https://evil.com',
    'http:/evil.com',
    'HTTPS://evil.com/',
    '//evil.com/%2F..',
    '///evil.com',
    '/%2F%2Fevil.com',
    '/%2fevil.com',
    '/%5Cevil.com',
    '/%5cevil.com',
    '/%252F%252Fevil.com',
    '/%25252F%25252Fevil.com',
    '%2F%2Fevil.com',
    '/%09/evil.com',
    '/%0A/evil.com',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '\t//evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    '/\r\n/evil.com',
    '/\u0000/evil.com',
    ' //evil.com',
    '/ /evil.com',
    'evil.com',
    'tickets',
    '',
    '/%E0%A4%A',
    `/${'a'.repeat(2001)}`,
  ])('sends %j home instead', (hostile) => {
    expect(safeReturnPath(hostile)).toBe('/');
    // Whatever a browser makes of what is kept, it stays on this site.
    expect(new URL(safeReturnPath(hostile), 'https://desk.example.com').origin).toBe('https://desk.example.com');
  });

  it('sends anything that is not a string home', () => {
    for (const value of [undefined, null, 42, ['/tickets'], { path: '/tickets' }]) expect(safeReturnPath(value)).toBe('/');
  });

  it('is the one rule the sign-in page and action use', () => {
    expect(safeNextPath).toBe(safeReturnPath);
  });
});
