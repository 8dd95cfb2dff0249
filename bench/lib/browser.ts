import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, signIn } from '../../tests/browser/browser';
import { AGENT } from './cli';
import { median } from './http';
import { onCleanup } from './processes';

export interface ScriptBytes {
  /** Sum over the page's script responses of the bytes as sent (gzip when the server compressed them). */
  readonly gzipBytes: number;
  readonly rawBytes: number;
  readonly scripts: number;
  /** "server": every script came with content-encoding gzip; "harness": some did not, and the harness gzipped those. */
  readonly gzipBy: 'server' | 'harness' | 'mixed';
}

export interface BrowserResult {
  readonly js: { readonly list: ScriptBytes; readonly detail: ScriptBytes; readonly baseline: ScriptBytes };
  readonly navigation: {
    readonly toDetailMs: readonly number[];
    readonly toListMs: readonly number[];
    readonly toDetailMedianMs: number;
    readonly toListMedianMs: number;
    /** Navigations that reloaded the document instead of navigating on the client. */
    readonly fullReloads: number;
  };
}

interface ScriptResponse {
  readonly url: string;
  readonly encoding: string;
  /** Bytes of the body as sent (-1 when Chromium does not know). */
  readonly wireBytes: number;
  readonly rawBytes: number;
  /** The body gzipped by the harness (zlib level 6, as the server's compression uses). */
  readonly harnessGzipBytes: number;
}

/**
 * Loads one page in a new browser context (its own empty cache and cookies, as a first visit)
 * and adds up what its scripts weigh: the gzip bytes as sent when the server compressed them,
 * else the body gzipped by the harness.
 */
async function scriptBytes(
  browser: Browser,
  baseUrl: string,
  pagePath: string,
  cookie: string | null,
): Promise<ScriptBytes & { responses: ScriptResponse[] }> {
  const context = await browser.newContext();
  try {
    if (cookie) {
      const at = cookie.indexOf('=');
      await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: baseUrl }]);
    }
    const page = await context.newPage();
    const pending: Promise<ScriptResponse>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        (async () => {
          const body = await response.body();
          const encoding = (await response.allHeaders())['content-encoding'] ?? '';
          const sizes = await response.request().sizes();
          return {
            url: new URL(response.url()).pathname,
            encoding,
            wireBytes: sizes.responseBodySize,
            rawBytes: body.length,
            harnessGzipBytes: gzipSync(body, { level: 6 }).length,
          };
        })(),
      );
    });
    const response = await page.goto(`${baseUrl}${pagePath}`, { waitUntil: 'networkidle' });
    if (response?.status() !== 200) throw new Error(`${pagePath} answered ${response?.status()} in Chromium`);
    const responses = await Promise.all(pending);
    const fromServer = (r: ScriptResponse) => r.encoding === 'gzip' && r.wireBytes > 0;
    const count = responses.filter(fromServer).length;
    return {
      gzipBytes: responses.reduce((a, r) => a + (fromServer(r) ? r.wireBytes : r.harnessGzipBytes), 0),
      rawBytes: responses.reduce((a, r) => a + r.rawBytes, 0),
      scripts: responses.length,
      gzipBy: count === responses.length ? 'server' : count === 0 ? 'harness' : 'mixed',
      responses,
    };
  } finally {
    await context.close();
  }
}

interface Timed {
  readonly ms: number;
  readonly sameDocument: boolean;
}

/**
 * In the page: clicks a link and times from the click to the frame after the target's content is
 * in the document (a requestAnimationFrame, then a task: it has been painted). Plain JavaScript
 * in a string, so that nothing the TypeScript loader adds to functions reaches the page.
 */
const TIMED_CLICK = `({ link, target }) => new Promise((resolve, reject) => {
  window.__nfBenchMarker ??= Math.random();
  const marker = window.__nfBenchMarker;
  const anchor = document.querySelector(link);
  if (!anchor) return reject(new Error('no link ' + link));
  const ready = () => {
    if (location.pathname !== target.path) return false;
    const h1 = document.querySelector('h1');
    if (!h1) return false;
    const text = (h1.textContent || '').trim();
    if (target.heading !== null ? text !== target.heading : text === 'Tickets') return false;
    return !target.rows || document.querySelector('table tbody tr') !== null;
  };
  const timer = setTimeout(() => reject(new Error('navigation to ' + target.path + ' not painted within 15 s')), 15000);
  const started = performance.now();
  const finish = () => requestAnimationFrame(() => setTimeout(() => {
    clearTimeout(timer);
    resolve({ ms: performance.now() - started, sameDocument: window.__nfBenchMarker === marker });
  }, 0));
  const observer = new MutationObserver(() => {
    if (ready()) {
      observer.disconnect();
      finish();
    }
  });
  observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true });
  anchor.click();
})`;

async function timedClick(page: Page, link: string, target: { path: string; heading: string | null; rows: boolean }): Promise<Timed> {
  return (await page.evaluate(`(${TIMED_CLICK})(${JSON.stringify({ link, target })})`)) as Timed;
}

/** Lets the page settle between navigations (prefetches, effects) without waiting for network idle. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.waitForTimeout(150);
}

/**
 * Debian's Chromium, launched once with a fresh temporary profile; each measurement runs in a
 * new context of it (own cache and cookies).
 */
export async function measureBrowser(baseUrl: string, cookie: string, detailId: number, navigations: number): Promise<BrowserResult> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const forget = onCleanup(() => browser.close());
  try {
    const baseline = await scriptBytes(browser, baseUrl, '/diagnostics/baseline', null);
    const list = await scriptBytes(browser, baseUrl, '/tickets', cookie);
    const detail = await scriptBytes(browser, baseUrl, `/tickets/${detailId}`, cookie);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, baseUrl, AGENT.email, AGENT.password);
    await page.goto(`${baseUrl}/tickets`, { waitUntil: 'networkidle' });
    const toDetailMs: number[] = [];
    const toListMs: number[] = [];
    let fullReloads = 0;
    for (let i = 0; i < navigations; i++) {
      const row = (i % 20) + 1;
      const rowLink = `table tbody tr:nth-child(${row}) td a[href^="/tickets/"]`;
      const href = await page.locator(rowLink).first().getAttribute('href');
      if (!href) throw new Error(`row ${row} of /tickets has no link to a ticket`);
      const there = await timedClick(page, rowLink, { path: href, heading: null, rows: false });
      toDetailMs.push(there.ms);
      if (!there.sameDocument) fullReloads++;
      await settle(page);
      const back = await timedClick(page, 'nav[aria-label="Breadcrumb"] a[href="/tickets"]', {
        path: '/tickets',
        heading: 'Tickets',
        rows: true,
      });
      toListMs.push(back.ms);
      if (!back.sameDocument) fullReloads++;
      await settle(page);
    }
    await context.close();
    return {
      js: { list, detail, baseline },
      navigation: { toDetailMs, toListMs, toDetailMedianMs: median(toDetailMs), toListMedianMs: median(toListMs), fullReloads },
    };
  } finally {
    forget();
    await browser.close();
  }
}
