import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { openBrowser, signIn } from '../../tests/browser/browser';
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

/** Loads a page with the HTTP cache off and adds up what its scripts weigh. */
async function scriptBytes(page: Page, url: string): Promise<ScriptBytes> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const pending: Promise<{ gzip: number; raw: number; by: 'server' | 'harness' }>[] = [];
  const onResponse = (response: import('playwright-core').Response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const body = await response.body();
        const encoding = (await response.allHeaders())['content-encoding'] ?? '';
        if (encoding === 'gzip') {
          const sizes = await response.request().sizes();
          return { gzip: sizes.responseBodySize, raw: body.length, by: 'server' as const };
        }
        return { gzip: gzipSync(body).length, raw: body.length, by: 'harness' as const };
      })(),
    );
  };
  page.on('response', onResponse);
  try {
    await page.goto(url, { waitUntil: 'networkidle' });
    const parts = await Promise.all(pending);
    const by = new Set(parts.map((p) => p.by));
    return {
      gzipBytes: parts.reduce((a, p) => a + p.gzip, 0),
      rawBytes: parts.reduce((a, p) => a + p.raw, 0),
      scripts: parts.length,
      gzipBy: by.size > 1 ? 'mixed' : by.has('harness') ? 'harness' : 'server',
    };
  } finally {
    page.off('response', onResponse);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    await cdp.detach();
  }
}

interface Timed {
  readonly ms: number;
  readonly sameDocument: boolean;
}

/**
 * Clicks a link inside the page and times, in the page, from the click to the frame after the
 * target's content is in the document (a requestAnimationFrame, then a task: it has been painted).
 */
async function timedClick(page: Page, link: string, target: { path: string; heading: string | null; rows: boolean }): Promise<Timed> {
  return page.evaluate(
    ({ link, target }) =>
      new Promise<Timed>((resolve, reject) => {
        const w = window as typeof window & { __nfBenchMarker?: number };
        w.__nfBenchMarker ??= Math.random();
        const marker = w.__nfBenchMarker;
        const anchor = document.querySelector<HTMLAnchorElement>(link);
        if (!anchor) return reject(new Error(`no link ${link}`));
        const ready = () => {
          if (location.pathname !== target.path) return false;
          const h1 = document.querySelector('main h1, h1');
          if (!h1) return false;
          const text = h1.textContent?.trim() ?? '';
          if (target.heading !== null ? text !== target.heading : text === 'Tickets') return false;
          return !target.rows || document.querySelector('table tbody tr') !== null;
        };
        const timer = setTimeout(() => reject(new Error(`navigation to ${target.path} not painted within 15 s`)), 15_000);
        const started = performance.now();
        const finish = () =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              clearTimeout(timer);
              resolve({ ms: performance.now() - started, sameDocument: w.__nfBenchMarker === marker });
            }, 0),
          );
        const observer = new MutationObserver(() => {
          if (ready()) {
            observer.disconnect();
            finish();
          }
        });
        observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true });
        anchor.click();
      }),
    { link, target },
  );
}

export async function measureBrowser(baseUrl: string, detailId: number, navigations: number): Promise<BrowserResult> {
  const browser = await openBrowser();
  const forget = onCleanup(() => browser.close());
  try {
    const { page } = browser;
    // The baseline is a page for anonymous visitors: measured before signing in.
    const baseline = await scriptBytes(page, `${baseUrl}/diagnostics/baseline`);
    await signIn(page, baseUrl, AGENT.email, AGENT.password);
    const list = await scriptBytes(page, `${baseUrl}/tickets`);
    const detail = await scriptBytes(page, `${baseUrl}/tickets/${detailId}`);

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
      await page.waitForLoadState('networkidle');
      const back = await timedClick(page, 'nav[aria-label="Breadcrumb"] a[href="/tickets"]', { path: '/tickets', heading: 'Tickets', rows: true });
      toListMs.push(back.ms);
      if (!back.sameDocument) fullReloads++;
      await page.waitForLoadState('networkidle');
    }
    return {
      js: { list, detail, baseline },
      navigation: { toDetailMs, toListMs, toDetailMedianMs: median(toDetailMs), toListMedianMs: median(toListMs), fullReloads },
    };
  } finally {
    forget();
    await browser.close();
  }
}
