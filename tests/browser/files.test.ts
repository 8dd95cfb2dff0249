import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, fetchPage, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, sidewaysScroll, signIn, type Browser } from './browser';
import { DEMO_AGENT, DEMO_CUSTOMER } from './servers';

const server = inject('helpdesk');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/*
 * Files on the helpdesk, as its people use them: a customer opens a ticket with a screenshot
 * (uploaded as it is chosen, with its progress) and the ticket shows its thumbnail; the customer
 * replies with a PDF from a browser without JavaScript and the reply links it, downloaded as an
 * attachment; an agent's internal note with a file is nowhere in what the customer receives.
 */
describe('files on a ticket and in its thread', () => {
  let customer: Browser;
  let customerNoScript: Browser;
  let customerApi: ApiSession;
  let agentApi: ApiSession;

  beforeAll(async () => {
    [customer, customerNoScript] = await Promise.all([openBrowser(), openBrowser({ javaScriptEnabled: false })]);
    await signIn(customer.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await signIn(customerNoScript.page, server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    [customerApi, agentApi] = await Promise.all([
      signInOverApi(server.url, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password),
      signInOverApi(server.url, DEMO_AGENT.email, DEMO_AGENT.password),
    ]);
  });
  afterAll(() => Promise.all([customer, customerNoScript].filter(Boolean).map((b) => b.close())));

  const thread = (page: Page) => page.getByRole('list', { name: 'Comments' }).locator(':scope > li');
  const replyBox = (page: Page) => page.getByRole('form', { name: 'Reply' });

  it(
    'uploads with progress, shows thumbnails and links, replies without JavaScript, keeps internal files internal',
    { timeout: 240_000 },
    async () => {
      const tag = randomUUID().slice(0, 8);
      const screenshot = await sharp({ create: { width: 1200, height: 750, channels: 3, background: '#2f6fdf' } })
        .png()
        .toBuffer();

      // With JavaScript: the screenshot is uploaded as soon as it is chosen; the form posts its id.
      const page = customer.page;
      await page.goto(`${server.url}/tickets/new`);
      await page.waitForFunction(() => {
        const input = document.querySelector('form input[type="file"]');
        return input !== null && Object.keys(input).some((key) => key.startsWith('__reactProps'));
      });
      await page.getByLabel('Subject').fill(`Blank screen ${tag}`);
      const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/v1/files') && r.request().method() === 'POST');
      await page.getByLabel('Attachments').setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: screenshot });
      expect((await uploaded).status()).toBe(201);
      const progress = page.getByRole('progressbar', { name: 'screen.png' });
      await expect.poll(() => progress.getAttribute('value')).toBe('100');
      expect(await page.getByText('100%', { exact: true }).count()).toBe(1);
      // The native input was emptied: the bytes are not posted a second time with the form.
      expect(await page.getByLabel('Attachments').evaluate((input) => (input as HTMLInputElement).files?.length)).toBe(0);
      const posts: number[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && !request.url().includes('/api/')) posts.push(request.postDataBuffer()?.length ?? 0);
      });
      await Promise.all([
        page.waitForURL(/\/tickets\/\d+$/),
        page.getByRole('button', { name: /^(Create ticket|Open a ticket)$/ }).click(),
      ]);
      expect(Math.max(...posts)).toBeLessThan(screenshot.length);
      const ticketUrl = page.url();
      const ticketId = Number(new URL(ticketUrl).pathname.split('/').pop());

      const thumbnail = page.getByRole('img', { name: 'screen.png' });
      await thumbnail.waitFor();
      expect(await thumbnail.getAttribute('width')).toBe('320');
      expect(await thumbnail.getAttribute('height')).toBe('200');
      await expect.poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(320);
      expect(await page.getByRole('link', { name: 'screen.png', exact: true }).first().getAttribute('href')).toMatch(
        /^\/api\/v1\/files\/\d+$/,
      );

      // Without JavaScript: the PDF goes with the reply's post.
      const noScript = customerNoScript.page;
      await noScript.goto(ticketUrl);
      await replyBox(noScript).getByLabel('Body').fill(`The log ${tag}`);
      await replyBox(noScript).getByLabel('Attachments').setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: PDF });
      await Promise.all([
        noScript.waitForURL(/#related-comment$/),
        replyBox(noScript).getByRole('button', { name: 'Reply', exact: true }).click(),
      ]);
      const reply = thread(noScript).last();
      expect(await reply.innerText()).toContain(`The log ${tag}`);
      const pdfLink = reply.getByRole('link', { name: 'report.pdf' });
      expect(await reply.innerText()).toContain(`report.pdf (${PDF.length} bytes)`);
      const download = await fetch(new URL((await pdfLink.getAttribute('href'))!, server.url), { headers: { cookie: customerApi.cookie } });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="report\.pdf"/);
      expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);

      // An agent's internal note with a file: the customer receives nothing of either.
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(Buffer.from(`internal notes ${tag}\n`))]), `agent-only-${tag}.txt`);
      const staged = await fetch(`${server.url}/api/v1/files`, {
        method: 'POST',
        headers: { cookie: agentApi.cookie, origin: server.url },
        body: form,
      });
      expect(staged.status).toBe(201);
      const [note] = ((await staged.json()) as { items: { id: number }[] }).items;
      const created = await callApi(server.url, agentApi, 'POST', '/comments', {
        ticket: ticketId,
        body: `Checked the logs ${tag}`,
        internal: true,
        attachments: [note!.id],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const pathname = new URL(ticketUrl).pathname;
      const bytes = (await Promise.all([false, true].map((rsc) => fetchPage(server.url, customerApi, pathname, rsc))))
        .map((p) => p.text)
        .join('\n');
      expect(bytes).toContain('report.pdf');
      expect(bytes).not.toContain(`agent-only-${tag}`);
      expect(bytes).not.toContain(`/api/v1/files/${note!.id}"`);
      const refused = await fetch(`${server.url}/api/v1/files/${note!.id}`, { headers: { cookie: customerApi.cookie } });
      expect(refused.status).toBe(404);

      // The customer's page with its files: accessible, and whole at a desk and on a phone.
      await page.goto(ticketUrl);
      await thread(page).first().waitFor();
      await page.getByRole('img', { name: 'screen.png' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: '/tmp/files-1280.png', fullPage: true });
      await page.setViewportSize({ width: 360, height: 800 });
      expect(await sidewaysScroll(page)).toBe(0);
      await page.screenshot({ path: '/tmp/files-360.png', fullPage: true });
    },
  );
});
