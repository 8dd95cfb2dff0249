import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getScriptNonceFromHeader } from 'next/dist/server/app-render/get-script-nonce-from-header';
import { BUILT_IN_ERRORS } from '@/engine/errors/catalogue';
import { crossOriginReason } from './cross-origin.mjs';
import { isHttps } from './credentials';
import { DOOR_ERRORS, doorRefusal, problemTypeOf, wantsPage } from './door-refusal.mjs';
import { isRefusedRequestHeader, rewriteRequestHeaders } from './incoming-headers.mjs';
import { problemType } from './problem';
import { isHttpsRequest, PROTO_HEADER, requestProtocol } from './request-scheme.mjs';
import { contentSecurityPolicy, newNonce, securityHeaders } from './response-headers.mjs';
import { isUnknownAction, serverActionIds } from './server-action-ids.mjs';

/** The web door of scripts/server.mjs: what it does to every request and response before the app. */

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values]),
  );
}

describe('the Content-Security-Policy', () => {
  it('allows scripts only by a fresh nonce (and what they load), never inline or eval', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => newNonce()));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    const nonce = newNonce();
    const policy = directives(contentSecurityPolicy(nonce));
    expect(policy.get('script-src')).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
    expect(contentSecurityPolicy(nonce)).not.toMatch(/unsafe-eval/);
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
    // A nonce in style-src would make browsers ignore its 'unsafe-inline'.
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('is read back by Next.js as the nonce for its own scripts', () => {
    const nonce = newNonce();
    expect(getScriptNonceFromHeader(contentSecurityPolicy(nonce))).toBe(nonce);
  });

  it('comes with the framing, sniffing and referrer headers, and HSTS only over https', () => {
    const policy = contentSecurityPolicy('abc');
    const plain = securityHeaders(policy, false);
    expect(plain).toEqual({
      'content-security-policy': policy,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    });
    expect(securityHeaders(policy, true)).toEqual({ ...plain, 'strict-transport-security': 'max-age=31536000; includeSubDomains' });
  });
});

describe('the scheme the browser used', () => {
  it('is https on a TLS socket, whatever the headers say', () => {
    expect(requestProtocol(true, undefined, 0)).toBe('https');
    expect(requestProtocol(true, 'http', 1)).toBe('https');
  });

  it('believes X-Forwarded-Proto only behind trusted proxies', () => {
    expect(requestProtocol(false, 'https', 0)).toBe('http');
    expect(requestProtocol(false, 'https', 1)).toBe('https');
    expect(requestProtocol(false, 'HTTPS', 1)).toBe('https');
    expect(requestProtocol(false, undefined, 1)).toBe('http');
    expect(requestProtocol(false, '', 1)).toBe('http');
    expect(requestProtocol(false, 'ftp', 1)).toBe('http');
    expect(requestProtocol(false, ['https'], 1)).toBe('https');
  });

  it('takes the entry the outermost trusted proxy wrote; what a client put further left is ignored', () => {
    // The client wrote "https"; the one proxy appended the scheme it received.
    expect(requestProtocol(false, 'https, http', 1)).toBe('http');
    expect(requestProtocol(false, 'http, https', 1)).toBe('https');
    // Two proxies: the outer one received https, the inner one http from the outer.
    expect(requestProtocol(false, 'https, http', 2)).toBe('https');
    // Fewer entries than proxies (some overwrite): the leftmost there is.
    expect(requestProtocol(false, 'https', 3)).toBe('https');
  });

  it("is read from the server's own header only", () => {
    expect(isHttpsRequest(new Headers({ [PROTO_HEADER]: 'https' }))).toBe(true);
    expect(isHttpsRequest(new Headers({ [PROTO_HEADER]: 'http', 'x-forwarded-proto': 'https' }))).toBe(false);
    expect(isHttpsRequest(new Headers({ 'x-forwarded-proto': 'https' }))).toBe(false);
    expect(isHttps(new Request('http://desk.test/', { headers: { 'x-forwarded-proto': 'https' } }))).toBe(false);
    expect(isHttps(new Request('http://desk.test/', { headers: { [PROTO_HEADER]: 'https' } }))).toBe(true);
    expect(isHttps(new Request('https://desk.test/'))).toBe(true);
  });
});

describe('the incoming headers', () => {
  const internal = [
    'x-middleware-subrequest',
    'x-middleware-invoke',
    'x-middleware-rewrite',
    'x-middleware-set-cookie',
    'x-invoke-path',
    'x-invoke-query',
    'x-invoke-status',
    'x-invoke-output',
    'x-matched-path',
    'x-now-route-matches',
    'x-nextjs-data',
    'x-next-revalidate-tag-token',
    'x-next-revalidated-tags',
    'x-prerender-revalidate',
    'next-resume',
    'x-ninefold-client-ip',
    'x-ninefold-proto',
    'content-security-policy',
    'content-security-policy-report-only',
  ];
  const kept = [
    'rsc',
    'next-action',
    'next-router-state-tree',
    'next-router-prefetch',
    'next-router-segment-prefetch',
    'next-url',
    'x-deployment-id',
    'cookie',
    'origin',
    'host',
    'accept',
    'content-type',
    'sec-fetch-site',
  ];
  const forwarding = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'];

  it("drops the framework's internal headers and copies of the server's own; keeps what the client router sends", () => {
    for (const name of internal) {
      expect(isRefusedRequestHeader(name, false), name).toBe(true);
      expect(isRefusedRequestHeader(name, true), name).toBe(true);
    }
    for (const name of kept) {
      expect(isRefusedRequestHeader(name, false), name).toBe(false);
      expect(isRefusedRequestHeader(name, true), name).toBe(false);
    }
  });

  it('drops X-Forwarded-* unless proxies are trusted', () => {
    for (const name of forwarding) {
      expect(isRefusedRequestHeader(name, false), name).toBe(true);
      expect(isRefusedRequestHeader(name, true), name).toBe(false);
    }
  });

  it("rewrites both forms of a Node request (any case, repeated), then adds the server's own", () => {
    const req = {
      rawHeaders: [
        'Host',
        'desk.test',
        'X-Middleware-Subrequest',
        'middleware',
        'X-Ninefold-Proto',
        'https',
        'Next-Action',
        'abc',
        'X-Forwarded-Host',
        'evil.test',
        'x-middleware-subrequest',
        'again',
        'Content-Security-Policy',
        "script-src 'nonce-forged'",
      ],
      headers: {
        host: 'desk.test',
        'x-middleware-subrequest': 'middleware, again',
        'x-ninefold-proto': 'https',
        'next-action': 'abc',
        'x-forwarded-host': 'evil.test',
        'content-security-policy': "script-src 'nonce-forged'",
      } as Record<string, string | string[] | undefined>,
    };
    rewriteRequestHeaders(req, false, { 'x-ninefold-proto': 'http', 'content-security-policy': "script-src 'nonce-ours'" });
    expect(req.rawHeaders).toEqual([
      'Host',
      'desk.test',
      'Next-Action',
      'abc',
      'x-ninefold-proto',
      'http',
      'content-security-policy',
      "script-src 'nonce-ours'",
    ]);
    expect(req.headers).toEqual({
      host: 'desk.test',
      'next-action': 'abc',
      'x-ninefold-proto': 'http',
      'content-security-policy': "script-src 'nonce-ours'",
    });
  });
});

describe('a change from another site', () => {
  const host = { host: '127.0.0.1:3000' };
  it('is refused when its Origin is another host, scheme or port, opaque or unreadable', () => {
    for (const origin of [
      'http://evil.test',
      'http://127.0.0.1:3001',
      'http://127.0.0.1',
      'null',
      'file://',
      'chrome-extension://abc',
      '::::',
      'http://127.0.0.1:3000@evil.test',
    ]) {
      expect(crossOriginReason('POST', { ...host, origin }, false), origin).not.toBeNull();
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'post'])
      expect(crossOriginReason(method, { ...host, origin: 'http://evil.test' }, false)).not.toBeNull();
  });

  it('is let through from this host, in any case and with or without the default port', () => {
    expect(crossOriginReason('POST', { ...host, origin: 'http://127.0.0.1:3000' }, false)).toBeNull();
    expect(crossOriginReason('POST', { host: 'Desk.Example.com', origin: 'https://desk.example.com' }, false)).toBeNull();
    expect(crossOriginReason('POST', { host: 'desk.example.com:443', origin: 'https://desk.example.com' }, false)).toBeNull();
    expect(crossOriginReason('POST', { host: '[::1]:3000', origin: 'http://[::1]:3000' }, false)).toBeNull();
  });

  it('is refused when the browser marks it cross-site or same-site (another subdomain or port), whatever Origin says', () => {
    expect(crossOriginReason('POST', { ...host, 'sec-fetch-site': 'cross-site' }, false)).not.toBeNull();
    expect(crossOriginReason('POST', { ...host, origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-site' }, false)).not.toBeNull();
    expect(crossOriginReason('POST', { ...host, origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }, false)).toBeNull();
  });

  it('compares with X-Forwarded-Host only behind trusted proxies', () => {
    const proxied = { host: '10.0.0.5:3000', 'x-forwarded-host': 'desk.example.com', origin: 'https://desk.example.com' };
    expect(crossOriginReason('POST', proxied, true)).toBeNull();
    expect(crossOriginReason('POST', proxied, false)).not.toBeNull();
    // A forged X-Forwarded-Host cannot make another site's Origin match when no proxy is trusted.
    expect(crossOriginReason('POST', { ...host, 'x-forwarded-host': 'evil.test', origin: 'http://evil.test' }, false)).not.toBeNull();
  });

  it('leaves reads alone, and requests no browser sent (neither Origin nor Sec-Fetch-Site)', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      expect(crossOriginReason(method, { ...host, origin: 'http://evil.test', 'sec-fetch-site': 'cross-site' }, false)).toBeNull();
    expect(crossOriginReason('POST', host, false)).toBeNull();
  });
});

describe('what the door answers itself', () => {
  it("uses the catalogue's words and problem types", () => {
    for (const [code, words] of Object.entries(DOOR_ERRORS)) expect(words, code).toEqual(BUILT_IN_ERRORS[code as keyof typeof DOOR_ERRORS]);
    expect(problemTypeOf('NOT_FOUND')).toBe(problemType('NOT_FOUND'));
  });

  it('is problem+json for scripts and a page for a form posted without JavaScript', () => {
    const problem = doorRefusal('FORBIDDEN', 'Cross-site request refused.', false);
    expect(problem.status).toBe(403);
    expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(problem.body)).toEqual({
      type: problemType('FORBIDDEN'),
      title: 'Forbidden',
      status: 403,
      detail: 'Cross-site request refused.',
      code: 'FORBIDDEN',
    });
    const page = doorRefusal('FORBIDDEN', 'Sent from <b>elsewhere</b>.', true);
    expect(page.status).toBe(403);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(BUILT_IN_ERRORS.FORBIDDEN.message);
    expect(page.body).toContain('Sent from &#60;b&#62;elsewhere&#60;/b&#62;.');
    expect(page.body).not.toMatch(/<script/i);
    expect(wantsPage({ accept: 'text/html,application/xhtml+xml' })).toBe(true);
    expect(wantsPage({ accept: 'text/html', 'next-action': 'abc' })).toBe(false);
    expect(wantsPage({ accept: '*/*' })).toBe(false);
  });

  it('leaves out of a page the catalogue’s words that speak of fields or JSON: the detail says what is wrong', () => {
    const page = doorRefusal('VALIDATION_FAILED', 'The body is not valid JSON.', true);
    expect(page.status).toBe(422);
    expect(page.body).toContain('<h1>Validation failed</h1><p>The body is not valid JSON.</p>');
    expect(page.body).not.toContain(BUILT_IN_ERRORS.VALIDATION_FAILED.message);
  });

  it('knows the server actions of the build and their names from its manifest, and nothing when there is none', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'nf-actions-'));
    expect(serverActionIds(root)).toBeNull();
    expect(isUnknownAction(null, 'anything')).toBe(false);
    mkdirSync(path.join(root, '.next', 'server'), { recursive: true });
    writeFileSync(
      path.join(root, '.next', 'server', 'server-reference-manifest.json'),
      JSON.stringify({ node: { '00aa': { exportedName: 'signInAction' }, '40bb': {} }, edge: {}, encryptionKey: 'x' }),
    );
    const ids = serverActionIds(root);
    expect(ids).toEqual(
      new Map([
        ['00aa', 'signInAction'],
        ['40bb', ''],
      ]),
    );
    expect(isUnknownAction(ids, '40bb')).toBe(false);
    expect(isUnknownAction(ids, '7f00')).toBe(true);
    expect(isUnknownAction(ids, '')).toBe(true);
    expect(isUnknownAction(ids, undefined)).toBe(false);
    writeFileSync(path.join(root, '.next', 'server', 'server-reference-manifest.json'), '{"something": "else"}');
    expect(serverActionIds(root)).toBeNull();
  });
});
