import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInOverApi, type ApiSession } from './api-session';
import { axeViolations } from './axe';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';
import { pick } from './pick';

const SHOTS = '/tmp/shots';
const DISPATCHER = { email: 'dispatcher1@demo.ninefold.test', password: 'demo-password' } as const;
const TECHNICIAN = { email: 'technician1@demo.ninefold.test', password: 'demo-password' } as const;

/*
 * The field-service example (examples/field-service/ninefold.spec.ts) as its users meet it: a
 * derived column (a work order's parts total) in the list, and a visit planned in a browser in
 * New York whose times are entered and shown in New York's zone, stored in UTC.
 */
describe('field service: derived columns and a form in another time zone', () => {
  let server: RunningServer;
  let dispatcher: ApiSession;
  let technicianName: string;
  let newYork: Browser;
  let order: number;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'nf-browser-field-service-'));
    const env = {
      NINEFOLD_SPEC: 'examples/field-service/ninefold.spec.ts',
      NINEFOLD_ADMIN_EMAIL: ADMIN.email,
      NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
    };
    const root = path.resolve(__dirname, '../..');
    execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/cli/main.ts', 'seed', '--count', '10'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, ...env },
      stdio: 'ignore',
    });
    server = await startServer('field-service', env, dataDir);
    dispatcher = await signInOverApi(server.url, DISPATCHER.email, DISPATCHER.password);
    const technician = (await signInOverApi(server.url, TECHNICIAN.email, TECHNICIAN.password)).user;
    technicianName = technician.name;
    const customer = await callApi<{ id: number }>(server.url, dispatcher, 'POST', '/customers', { name: 'Harbor Café' });
    const site = await callApi<{ id: number }>(server.url, dispatcher, 'POST', '/sites', {
      name: 'Harbor Café pier',
      customer: customer.body.id,
    });
    const created = await callApi<{ id: number }>(server.url, dispatcher, 'POST', '/work-orders', {
      title: 'Espresso machine leaks',
      site: site.body.id,
    });
    expect(created.status).toBe(201);
    order = created.body.id;
    for (const part of [
      { description: 'Gasket', quantity: 3, unitPrice: '4.20' },
      { description: 'Pump', quantity: 1, unitPrice: '180.00' },
    ]) {
      expect((await callApi(server.url, dispatcher, 'POST', '/part-lines', { workOrder: order, ...part })).status).toBe(201);
    }
    newYork = await openBrowser({ timezoneId: 'America/New_York' });
    await signIn(newYork.page, server.url, DISPATCHER.email, DISPATCHER.password);
    mkdirSync(SHOTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await newYork?.close();
    if (server) await stopServer(server);
  });

  it('lists work orders with their parts total, derived from their parts, at 1280 and 360 px', async () => {
    const { page } = newYork;
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/work-orders?q=Espresso`);
      const main = page.locator('main');
      if (width === 1280) {
        // A table on wide screens: the derived column has its header and the order's value.
        const table = page.getByRole('table');
        await expect.poll(() => table.getByRole('columnheader', { name: /Parts total/ }).count()).toBe(1);
        await expect.poll(() => main.innerText()).toMatch(/Espresso machine leaks[\s\S]*192\.60/);
      } else {
        // Phones fold each row to its first columns (title, state, site, equipment): the order is there.
        await expect.poll(() => main.innerText()).toMatch(/Espresso machine leaks/);
      }
      await page.screenshot({ path: `${SHOTS}/field-service-work-orders-${width}.png`, fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
    }
  });

  it('plans a visit in New York time: entered and shown in its zone, stored in UTC, its end derived', async () => {
    const { page } = newYork;
    await page.setViewportSize({ width: 1280, height: 900 });
    // The first page tells the server the browser's zone; the form then speaks it.
    await page.goto(`${server.url}/visits/new`);
    await page.goto(`${server.url}/visits/new`);
    await expect.poll(() => page.getByText('Times in America/New_York').first().isVisible()).toBe(true);
    await pick(page, 'Work order', 'Espresso machine leaks');
    await pick(page, 'Technician', technicianName);
    await page.getByLabel('Starts at').fill('2031-01-15T09:00');
    await page.getByLabel('Duration (minutes)').fill('90');
    await Promise.all([page.waitForURL(/\/visits\/\d+$/), page.getByRole('button', { name: /Create|Save/ }).click()]);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const visit = await callApi<{ startsAt: string; endsAt: string }>(server.url, dispatcher, 'GET', `/visits/${id}`);
    expect(visit.body.startsAt).toBe('2031-01-15T14:00:00.000Z');
    expect(visit.body.endsAt).toBe('2031-01-15T15:30:00.000Z');
    const main = page.locator('main');
    await expect
      .poll(() =>
        main
          .getByText(/Jan 15, 2031, 09:00 EST/)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await expect
      .poll(() =>
        main
          .getByText(/Jan 15, 2031, 10:30 EST/)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await page.screenshot({ path: `${SHOTS}/field-service-visit-new-york-1280.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  });
});
