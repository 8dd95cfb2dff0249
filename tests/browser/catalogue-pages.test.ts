import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, signIn, type Browser } from './browser';
import { DEMO_CUSTOMER } from './servers';

const server = inject('helpdesk');

describe('pages speak the error catalogue', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
    await signIn(browser.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
  });
  afterAll(() => browser.close());

  it('answers 403 with the FORBIDDEN page when the role may not list an entity', async () => {
    const { page } = browser;
    const response = await page.goto(`${server.url}/organizations`);
    expect(response?.status()).toBe(403);
    // Next.js renders forbidden()'s page in the browser (its server HTML is the bare error shell,
    // vercel/next.js#92231): wait for it rather than race it.
    await expect.poll(() => page.getByRole('heading', { name: 'Forbidden' }).count()).toBe(1);
    expect(await page.getByText('You are not allowed to do this.').count()).toBe(1);
  });

  it("answers 404 for a record out of the actor's scope, as for a missing one", async () => {
    const { page } = browser;
    // Customers see only their own tickets; some of the demo tickets are someone else's.
    const own = await page.goto(`${server.url}/tickets`);
    expect(own?.status()).toBe(200);
    const ownIds = new Set(
      (await page.locator('a[href^="/tickets/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).filter(
        (h) => h && /^\/tickets\/\d+$/.test(h),
      ),
    );
    let outOfScope: string | undefined;
    for (let id = 1; id <= 30 && !outOfScope; id++) if (!ownIds.has(`/tickets/${id}`)) outOfScope = `/tickets/${id}`;
    expect(outOfScope).toBeDefined();
    expect((await page.goto(`${server.url}${outOfScope}`))?.status()).toBe(404);
  });
});
