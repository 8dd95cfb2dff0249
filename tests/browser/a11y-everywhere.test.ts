import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, COLOUR_RULES, preloadAxe, type AxeViolation } from './axe';
import { CHROMIUM_ARGS } from './browser';
import { ADMIN, DEMO_AGENT, DEMO_CUSTOMER } from './servers';

/*
 * axe-core (WCAG 2.1 A and AA) on every page of both examples, as each kind of user, in the light
 * and the dark theme. The pages are not listed here: they are found the way a user finds them,
 * from the navigation and the links on each page (one page of each shape: /tickets/:id once,
 * however many tickets link), plus the pages every account has (home, account, 404, 403).
 * Forms are checked empty and again with their errors shown. Each page is loaded once and checked
 * in both themes by switching the device's colour scheme (the users follow the system setting),
 * so that the dark theme checked is the one the CSS applies, not a class set by the test. The dark
 * theme only redefines colours (src/ui/theme/theme.css), so there axe runs the rules colours can
 * break; every rule runs in the light theme.
 */

const CRM_SALES = { email: 'sales1@demo.ninefold.test', password: 'demo-password' } as const;
const CRM_MANAGER = { email: 'manager1@demo.ninefold.test', password: 'demo-password' } as const;
/** What the project promises: no serious or critical violation (the bar). */
const BLOCKING = new Set(['serious', 'critical']);
/** Enough for every shape of page of a spec; a bound so that a crawl cannot run away. */
const MAX_PAGES_PER_USER = 40;
const THEMES = ['light', 'dark'] as const;
/** Forms of one record's page checked with their errors shown (a reply, a transition, an add). */
const MAX_FORMS_PER_PAGE = 3;

/** The same page in another place: numbers in the path are ids, the query only filters. */
function shapeOf(pathname: string): string {
  return pathname.replace(/\/\d+(?=\/|$)/g, '/:id');
}

/** Links a user can follow to another page of the app: same origin, HTML pages only (no API, files or sign-out). */
function followable(href: string): boolean {
  return (
    href.startsWith('/') && !href.startsWith('//') && !/^\/(api\/v1|_next|diagnostics)\b/.test(href) && !/\.\w+$/.test(href.split('?')[0]!)
  );
}

/** Stops transitions, so that axe reads the colours of the theme and not a frame in between. */
async function withoutTransitions(page: Page): Promise<void> {
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
}

async function paintedDark(page: Page): Promise<boolean> {
  return page.evaluate(() => getComputedStyle(document.documentElement).colorScheme === 'dark');
}

interface Found {
  /** "<page> [theme]" → the blocking violations there. */
  readonly violations: Record<string, AxeViolation[]>;
  /** Fields marked invalid whose error text is not tied to them, and invalid submits that marked no field. */
  readonly untiedErrors: string[];
  readonly visited: string[];
  /** The forms checked again with their errors shown. */
  readonly withErrors: string[];
}

/** Checks the page as it is now in both themes; adds what fails to `found` under `label`. */
async function checkBothThemes(page: Page, label: string, found: Found): Promise<void> {
  await withoutTransitions(page);
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    expect(await paintedDark(page), `${label} in the ${theme} theme`).toBe(theme === 'dark');
    const blocking = (await axeViolations(page, theme === 'dark' ? { rules: COLOUR_RULES } : {})).filter((v) => BLOCKING.has(v.impact));
    if (blocking.length > 0) found.violations[`${label} [${theme}]`] = blocking;
  }
}

/**
 * Every field marked aria-invalid must point (aria-describedby) at an element saying what is
 * wrong; returns those that do not, as "<page>: <field name>".
 */
async function untiedErrors(page: Page, label: string): Promise<string[]> {
  const fields = await page.locator('[aria-invalid="true"]').evaluateAll((elements) =>
    elements.map((element) => {
      const described = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
      const text = described.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ');
      return { name: element.getAttribute('name') ?? element.id, tied: text !== '' };
    }),
  );
  return fields.filter((f) => !f.tied).map((f) => `${label}: ${f.name}`);
}

/** Forms that cannot be sent as they are: those with a required field the user fills in. */
const REQUIRED_FIELD = '[required]:not([type=hidden]):not([type=checkbox]):not([type=radio])';
/** The page's forms that show: not those folded in a closed disclosure (a field changed in place). */
const SHOWN_FORM = 'main form:not(details:not([open]) form)';

/** How many forms of the page's main content have a required field. */
function formsWithRequiredFields(page: Page): Promise<number> {
  return page
    .locator(SHOWN_FORM)
    .filter({ has: page.locator(REQUIRED_FIELD) })
    .count();
}

/**
 * Submits the page's `index`-th form with a required field, those fields emptied (the browser's
 * own checks off), so that its errors show; nothing is saved. Returns false when no field is
 * marked invalid after it: errors that no field carries.
 */
async function submitWithErrors(page: Page, index: number): Promise<boolean> {
  const form = page
    .locator(SHOWN_FORM)
    .filter({ has: page.locator(REQUIRED_FIELD) })
    .nth(index);
  await form.evaluate((element) => {
    const f = element as HTMLFormElement;
    f.noValidate = true;
    for (const field of f.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>('[required]')) {
      if (field.type === 'hidden' || field.type === 'checkbox' || field.type === 'radio') continue;
      field.value = '';
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
  });
  await form.locator('button[type=submit], button:not([type])').last().click();
  const invalid = page.locator('main [aria-invalid="true"]').first();
  // An irreversible action asks first (a dialog, or the server's question without JavaScript).
  // Going ahead is safe: its required fields are empty, so it is refused with its errors.
  const goAhead = page.locator(`dialog[open] button[name="confirm"], main button[name="confirm"]`).first();
  await invalid
    .or(goAhead)
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  if ((await invalid.count()) === 0 && (await goAhead.count()) > 0) await goAhead.click();
  return invalid.waitFor({ timeout: 10_000 }).then(
    () => true,
    () => false,
  );
}

/** The links of the page worth following: the navigation's and those in the main content. */
async function linksOf(page: Page): Promise<string[]> {
  return page.locator('header nav a[href], main a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
}

/**
 * Signs in, then visits every shape of page reachable from the home, the navigation, the account
 * page and `extra`, checking each in both themes (and its forms with their errors shown).
 */
async function crawl(
  browser: Browser,
  baseUrl: string,
  account: { email: string; password: string },
  extra: readonly string[],
): Promise<Found> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await preloadAxe(context);
  const page = await context.newPage();
  const found: Found = { violations: {}, untiedErrors: [], visited: [], withErrors: [] };
  try {
    await page.goto(`${baseUrl}/sign-in`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await Promise.all([
      page.waitForURL((url) => !url.pathname.startsWith('/sign-in')),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);

    const queue: string[] = ['/', '/account', ...extra];
    const seen = new Set<string>();
    while (queue.length > 0 && found.visited.length < MAX_PAGES_PER_USER) {
      const href = queue.shift() as string;
      const shape = shapeOf(href.split('?')[0]!);
      if (seen.has(shape)) continue;
      seen.add(shape);
      // A link to a file (an export) starts a download instead of a page: not a page to check.
      const response = await page.goto(`${baseUrl}${href}`).catch(() => null);
      if (!response || !(response.headers()['content-type'] ?? '').includes('text/html')) continue;
      // A 404 or 403 page comes as Next.js's bare error shell and is rendered in the browser
      // (vercel/next.js#92231): check the page, once there, not the shell. One that never comes
      // is checked as it is, and axe says what it lacks.
      await page
        .locator('html[lang]')
        .waitFor({ state: 'attached', timeout: 10_000 })
        .catch(() => undefined);
      // A page that sent the user elsewhere (sign-in, a redirect) is checked under its own address.
      const landed = new URL(page.url()).pathname;
      if (landed !== href.split('?')[0] && seen.has(shapeOf(landed))) continue;
      seen.add(shapeOf(landed));
      found.visited.push(href);
      await checkBothThemes(page, href, found);
      queue.push(...(await linksOf(page)).filter(followable));
      // The forms with their errors shown: a new or edit form, and on a record's page each form
      // that needs input (a reply, a transition asking for a field, adding a related record).
      const forms = /\/(new|edit)$/.test(landed)
        ? Math.min(1, await formsWithRequiredFields(page))
        : /\/\d+$/.test(landed)
          ? Math.min(MAX_FORMS_PER_PAGE, await formsWithRequiredFields(page))
          : 0;
      for (let index = 0; index < forms; index++) {
        if (index > 0) await page.goto(`${baseUrl}${href}`);
        const label = `${href} form ${index + 1} with errors`;
        if (!(await submitWithErrors(page, index))) {
          found.untiedErrors.push(`${label}: no field marked invalid`);
          continue;
        }
        await checkBothThemes(page, label, found);
        found.withErrors.push(label);
        found.untiedErrors.push(...(await untiedErrors(page, label)));
      }
    }
  } finally {
    await context.close();
  }
  return found;
}

describe('every page passes axe-core in both themes, for every kind of user of both examples', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  afterAll(() => browser?.close());

  // Pages no link leads to: a missing page, and the administrators' page for those who are not.
  const ERRORS = ['/no-such-page', '/admin/users'];
  // One user after the other: crawling two at once takes as long on two cores, with less margin per test.
  const users = [
    { spec: 'helpdesk', name: 'an administrator', account: ADMIN },
    { spec: 'helpdesk', name: 'an agent', account: DEMO_AGENT },
    { spec: 'helpdesk', name: 'a customer', account: DEMO_CUSTOMER },
    { spec: 'crm', name: 'an administrator', account: ADMIN },
    { spec: 'crm', name: 'a manager', account: CRM_MANAGER },
    { spec: 'crm', name: 'a salesperson', account: CRM_SALES },
  ] as const;

  /**
   * A crawl of every page in both themes, axe on each: its time grows with the spec and with a busy
   * machine, not with a fault. It checks content, not speed (the bench measures speed).
   */
  const CRAWL_TIMEOUT_MS = 240_000;

  for (const user of users) {
    it(
      `the ${user.spec} as ${user.name}`,
      async () => {
        const found = await crawl(browser, inject(user.spec).url, user.account, ERRORS);
        // A crawl that found almost nothing would pass for the wrong reason.
        expect(found.visited.length).toBeGreaterThanOrEqual(6);
        expect(found.withErrors).not.toEqual([]);
        expect({ violations: found.violations, untiedErrors: found.untiedErrors }).toEqual({ violations: {}, untiedErrors: [] });
      },
      CRAWL_TIMEOUT_MS,
    );
  }

  it('the pages for visitors who are not signed in: sign-in (also refused), setup, an invitation, a missing page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await preloadAxe(context);
    const page = await context.newPage();
    const found: Found = { violations: {}, untiedErrors: [], visited: [], withErrors: [] };
    try {
      for (const spec of ['helpdesk', 'crm'] as const) {
        const { url } = inject(spec);
        for (const pathname of ['/sign-in', '/setup', '/invite/no-such-invitation', '/no-such-page']) {
          await page.goto(`${url}${pathname}`);
          await checkBothThemes(page, `${spec} ${pathname}`, found);
        }
        await page.goto(`${url}/sign-in`);
        await page.getByLabel('Email').fill('nobody@example.com');
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText('Email or password is incorrect.').waitFor();
        await checkBothThemes(page, `${spec} /sign-in refused`, found);
        found.untiedErrors.push(...(await untiedErrors(page, `${spec} /sign-in`)));
      }
    } finally {
      await context.close();
    }
    expect({ violations: found.violations, untiedErrors: found.untiedErrors }).toEqual({ violations: {}, untiedErrors: [] });
  });
});
