import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './axe';
import { openBrowser, signIn, type Browser } from './browser';
import { DEMO_AGENT, DEMO_CUSTOMER } from './servers';

const server = inject('helpdesk');
const SCREENSHOTS = '/tmp/shots';

const SOURCE = [
  '# Steps',
  '',
  'It **fails** with `E42` after [the update](https://example.com/notes).',
  '',
  '- first',
  '- second',
  '',
  '<script>window.__previewRan = true</script><img src=x onerror="window.__previewRan = true">',
  '',
  '[click me](javascript:window.__previewRan=true)',
].join('\n');

/*
 * Markdown fields: Write and Preview tabs (keyboard like any tab list), the preview rendered on
 * the server by the pages' own renderer, so raw HTML and unsafe links never come alive; without
 * JavaScript, the plain textarea.
 */
describe('the Markdown editor', () => {
  let customer: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    customer = await openBrowser();
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
  });
  afterAll(() => customer?.close());

  it('previews what the pages will show, sanitised, and saves what was written', async () => {
    const { page } = customer;
    await page.goto(`${server.url}/tickets/new`);
    const tabs = page.getByRole('tablist', { name: 'Write or preview' });
    const write = tabs.getByRole('tab', { name: 'Write' });
    const preview = tabs.getByRole('tab', { name: 'Preview' });
    expect(await write.getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('Subject').fill('Markdown preview');
    await page.getByLabel('Description').fill(SOURCE);

    await preview.click();
    const panel = page.getByRole('tabpanel', { name: 'Preview' });
    await panel.locator('strong').waitFor();
    expect(await panel.locator('strong').textContent()).toBe('fails');
    expect(await panel.locator('li').allTextContents()).toEqual(['first', 'second']);
    expect(await panel.locator('a[href="https://example.com/notes"]').count()).toBe(1);
    // No raw HTML, no script, no javascript: link; nothing ran.
    expect(await panel.locator('script, img').count()).toBe(0);
    expect(await panel.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __previewRan?: boolean }).__previewRan)).toBeUndefined();
    expect(await page.getByLabel('Description').isVisible()).toBe(false);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(SCREENSHOTS, `markdown-preview-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious).toEqual([]);

    // Saved from the Preview tab: the text goes with the form all the same.
    await Promise.all([page.waitForURL(/\/tickets\/\d+$/), page.getByRole('button', { name: /Open a ticket|Create/ }).click()]);
    const shown = page.locator('main');
    expect(await shown.locator('strong', { hasText: 'fails' }).count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __previewRan?: boolean }).__previewRan)).toBeUndefined();
  });

  it('moves between the tabs with the arrow keys, Home and End, and keeps what was typed', async () => {
    const { page } = customer;
    await page.goto(`${server.url}/tickets/new`);
    const description = page.getByLabel('Description');
    await description.fill('Some *emphasis*');
    const write = page.getByRole('tab', { name: 'Write' });
    await write.focus();
    await page.keyboard.press('ArrowRight');
    const preview = page.getByRole('tab', { name: 'Preview' });
    expect(await preview.evaluate((tab) => tab === document.activeElement)).toBe(true);
    expect(await preview.getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tabpanel', { name: 'Preview' }).locator('em').waitFor();
    // Only the selected tab is in the Tab order.
    expect(await write.getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('ArrowRight');
    expect(await write.evaluate((tab) => tab === document.activeElement)).toBe(true);
    await page.keyboard.press('End');
    expect(await preview.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Home');
    expect(await write.getAttribute('aria-selected')).toBe('true');
    expect(await description.inputValue()).toBe('Some *emphasis*');
  });

  it("gives the reply box of a ticket's conversation the same tabs", async () => {
    const agent = await openBrowser();
    try {
      await signIn(agent.page, server.url, DEMO_AGENT.email, DEMO_AGENT.password);
      await agent.page.goto(`${server.url}/tickets`);
      const href = (await agent.page.locator('tbody tr a[href^="/tickets/"]').first().getAttribute('href'))!;
      await agent.page.goto(`${server.url}${href}`);
      const reply = agent.page.locator('form', { has: agent.page.getByRole('tablist', { name: 'Write or preview' }) }).last();
      await reply.getByRole('textbox').fill('A _reply_ preview');
      await reply.getByRole('tab', { name: 'Preview' }).click();
      await reply.getByRole('tabpanel', { name: 'Preview' }).locator('em', { hasText: 'reply' }).waitFor();
    } finally {
      await agent.close();
    }
  });

  it('is the plain textarea without JavaScript', async () => {
    const noScript = await openBrowser({ javaScriptEnabled: false });
    try {
      await signIn(noScript.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
      await noScript.page.goto(`${server.url}/tickets/new`);
      // Rendered, but hidden where scripting is off: no tab would work there.
      expect(await noScript.page.locator('[role="tablist"]').count()).toBe(1);
      expect(await noScript.page.locator('[role="tablist"]').isVisible()).toBe(false);
      expect(await noScript.page.getByLabel('Description').isVisible()).toBe(true);
      await noScript.page.setViewportSize({ width: 360, height: 900 });
      await noScript.page.screenshot({ path: path.join(SCREENSHOTS, 'markdown-noscript-360.png'), fullPage: true });
    } finally {
      await noScript.close();
    }
  });
});
