import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN } from './servers';

/** Log lines that mention a digest: the fallback's digest must be among them. */
function loggedDigests(logFile: string): string[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .flatMap((line) => [...line.matchAll(/"digest":"([^"]+)"/g)].map((m) => m[1]!));
}

async function waitForDigestInLog(logFile: string, digest: string): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    if (loggedDigests(logFile).includes(digest)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

for (const app of ['helpdesk', 'seed'] as const) {
  describe(`error fallbacks (${app})`, () => {
    const server = inject(app);
    let browser: Browser;
    beforeAll(async () => {
      browser = await openBrowser();
      if (app === 'helpdesk') await signIn(browser.page, server.url, ADMIN.email, ADMIN.password);
    });
    afterAll(() => browser.close());

    it('shows the server-side fallback with a digest that the server log carries', async () => {
      const { page } = browser;
      const response = await page.goto(`${server.url}/diagnostics/server-error`);
      expect(response?.status()).toBe(500);
      const host = new URL(server.url).hostname;
      await expect
        .poll(() => page.getByTestId('error-fallback').textContent())
        .toBe(`Application error: a server-side exception has occurred while loading ${host} (see the server logs for more information).`);
      const digestText = await page.getByTestId('error-digest').textContent();
      const digest = /^Digest: (\S+)$/.exec(digestText ?? '')?.[1];
      expect(digest, `digest line was "${digestText}"`).toBeTruthy();
      expect(await waitForDigestInLog(server.logFile, digest!)).toBe(true);
      // The fallback offers a way back.
      await expect.poll(() => page.getByRole('link', { name: 'Home' }).count()).toBeGreaterThan(0);
    });

    it('shows the client-side fallback after an exception in the browser', async () => {
      const { page } = browser;
      const response = await page.goto(`${server.url}/diagnostics/client-error`);
      expect(response?.status()).toBe(200);
      await page.getByRole('button', { name: 'Throw' }).click();
      const host = new URL(server.url).hostname;
      await expect
        .poll(() => page.getByTestId('error-fallback').textContent())
        .toBe(
          `Application error: a client-side exception has occurred while loading ${host} (see the browser console for more information).`,
        );
      expect(await page.getByTestId('error-digest').count()).toBe(0);
    });
  });
}
