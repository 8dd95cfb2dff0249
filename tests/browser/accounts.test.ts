import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, signIn, type Browser } from './browser';
import { ADMIN } from './servers';

const server = inject('helpdesk');

describe('accounts', () => {
  const browsers: Browser[] = [];
  const fresh = async (options?: { javaScriptEnabled?: boolean }) => {
    const browser = await openBrowser(options);
    browsers.push(browser);
    return browser;
  };
  let admin: Browser;

  beforeAll(async () => {
    admin = await fresh();
    await signIn(admin.page, server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await Promise.all(browsers.map((b) => b.close()));
  });

  it('an admin invites an agent, who chooses a password, lands signed in and sees the tickets; once disabled, their next page is the sign-in', async () => {
    const { page } = admin;
    await page.goto(`${server.url}/`);
    await Promise.all([
      page.waitForURL(`${server.url}/admin/users`),
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click(),
    ]);
    expect(await page.getByRole('heading', { name: 'Users', level: 1 }).count()).toBe(1);

    const email = `ivy.${Date.now()}@example.com`;
    const invite = page.locator('form', { has: page.getByRole('button', { name: 'Create invitation link' }) });
    // Without a role the account could open nothing: refused next to the roles, no link made.
    await invite.getByLabel('Email').fill(email);
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    await invite.getByText('Choose at least one role.').waitFor();
    expect(await page.locator('code[data-secret]').count()).toBe(0);
    await invite.getByLabel('Email').fill(email);
    await invite.getByLabel('Agent').check();
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    const secret = page.locator('code[data-secret]');
    await secret.waitFor();
    const link = (await secret.textContent())!.trim();
    expect(link).toMatch(new RegExp(`^${server.url}/invite/[A-Za-z0-9_-]{43}$`));
    expect(await page.getByText(`Invitation for ${email} created`).count()).toBe(1);
    await page.reload();
    // Shown once: the page itself never holds the link.
    expect(await page.locator('code[data-secret]').count()).toBe(0);
    expect(await page.content()).not.toContain(link);
    expect(await page.getByRole('cell', { name: email, exact: true }).count()).toBe(1);

    const agent = await fresh();
    await agent.page.goto(link);
    expect(await agent.page.getByRole('heading', { name: 'Create your account' }).count()).toBe(1);
    expect(await agent.page.getByText('You are invited to join as Agent.').count()).toBe(1);
    await agent.page.getByLabel('Name').fill('Ivy Invited');
    await agent.page.getByLabel('Password', { exact: true }).fill('ivy-password-1');
    await agent.page.getByLabel('Password again').fill('ivy-password-1');
    await Promise.all([agent.page.waitForURL(`${server.url}/`), agent.page.getByRole('button', { name: 'Create my account' }).click()]);
    expect(await agent.page.getByRole('link', { name: /Ivy Invited/ }).count()).toBe(1);
    await Promise.all([
      agent.page.waitForURL(`${server.url}/tickets`),
      agent.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tickets' }).click(),
    ]);
    expect(await agent.page.getByRole('heading', { name: 'Tickets', level: 1 }).count()).toBe(1);
    expect(await agent.page.locator('a[href^="/tickets/"]').count()).toBeGreaterThan(0);
    // An agent is no administrator.
    expect(await agent.page.getByRole('link', { name: 'Users', exact: true }).count()).toBe(0);
    expect((await agent.page.goto(`${server.url}/admin/users`))?.status()).toBe(403);

    // The link is used up.
    const stranger = await fresh();
    await stranger.page.goto(link);
    expect(await stranger.page.getByText('This invitation has already been used.').count()).toBe(1);

    await page.reload();
    const row = page.locator(`tr[data-user="${email}"]`);
    expect(await row.getByText('Active').count()).toBe(1);
    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable account' }).click();
    await row.getByText('Disabled').waitFor();

    const next = await agent.page.goto(`${server.url}/tickets`);
    expect(new URL(agent.page.url()).pathname).toBe('/sign-in');
    expect(next?.status()).toBe(200);
  });

  it('the account page creates a token, shown once, that works against the API until it is revoked', async () => {
    const { page } = admin;
    await page.goto(`${server.url}/`);
    await Promise.all([page.waitForURL(`${server.url}/account`), page.getByRole('link', { name: /Administrator/ }).click()]);
    expect(await page.getByRole('heading', { name: 'Your account' }).count()).toBe(1);

    await page.getByLabel('Token name').fill('browser test');
    await page.getByLabel('Expires after').selectOption('30');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = page.locator('code[data-secret]');
    await secret.waitFor();
    const token = (await secret.textContent())!.trim();
    expect(token).toMatch(/^nf_[A-Za-z0-9_-]{43}$/);

    const me = () => fetch(`${server.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    const answer = await me();
    expect(answer.status).toBe(200);
    expect((await answer.json()).email).toBe(ADMIN.email);

    await page.reload();
    expect(await page.locator('code[data-secret]').count()).toBe(0);
    const row = page.locator('tr[data-token="browser test"]');
    expect(await row.getByText('Active').count()).toBe(1);
    // Used once through the API by now.
    expect(await row.getByText('Never').count()).toBe(0);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await row.getByText('Revoked').waitFor();
    expect((await me()).status).toBe(401);
  });

  it('creates and revokes a token without JavaScript', async () => {
    const { page } = await fresh({ javaScriptEnabled: false });
    await signIn(page, server.url, ADMIN.email, ADMIN.password);
    await page.goto(`${server.url}/account`);
    await page.getByLabel('Token name').fill('no script');
    await page.getByLabel('Expires after').selectOption('never');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Create token' }).click()]);
    const token = (await page.locator('code[data-secret]').textContent())!.trim();
    expect(token).toMatch(/^nf_[A-Za-z0-9_-]{43}$/);
    const row = page.locator('tr[data-token="no script"]');
    expect(await row.getByText('Never').count()).toBe(2);
    // The server asks first (tests/browser/confirm.test.ts), then revokes.
    await Promise.all([page.waitForLoadState('load'), row.getByRole('button', { name: 'Revoke' }).click()]);
    await Promise.all([
      page.waitForLoadState('load'),
      page.locator('tr[data-token="no script"]').getByRole('button', { name: 'Revoke token' }).click(),
    ]);
    expect(await page.locator('tr[data-token="no script"]').getByText('Revoked').count()).toBe(1);
    expect((await fetch(`${server.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('changes the name and the password: this browser stays signed in, another session of the user ends', async () => {
    const email = `pat.${Date.now()}@example.com`;
    const { page } = admin;
    await page.goto(`${server.url}/admin/users`);
    const invite = page.locator('form', { has: page.getByRole('button', { name: 'Create invitation link' }) });
    await invite.getByLabel('Email').fill(email);
    await invite.getByLabel('Customer').check();
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    await page.locator('code[data-secret]').waitFor();
    const link = (await page.locator('code[data-secret]').textContent())!.trim();

    const here = await fresh();
    await here.page.goto(link);
    await here.page.getByLabel('Name').fill('Pat');
    await here.page.getByLabel('Password', { exact: true }).fill('pat-password-1');
    await here.page.getByLabel('Password again').fill('pat-password-1');
    await Promise.all([here.page.waitForURL(`${server.url}/`), here.page.getByRole('button', { name: 'Create my account' }).click()]);
    const elsewhere = await fresh();
    await signIn(elsewhere.page, server.url, email, 'pat-password-1');

    await here.page.goto(`${server.url}/account`);
    await here.page.getByLabel('Name', { exact: true }).fill('Pat Customer');
    await here.page.getByRole('button', { name: 'Save name' }).click();
    await here.page.getByText('Your name was saved.').waitFor();

    await here.page.getByLabel('Current password').fill('not the password');
    await here.page.getByLabel('New password', { exact: true }).fill('pat-password-2');
    await here.page.getByLabel('New password again').fill('pat-password-2');
    await here.page.getByRole('button', { name: 'Change password' }).click();
    await here.page.getByText('The current password is not correct.').waitFor();

    await here.page.getByLabel('Current password').fill('pat-password-1');
    await here.page.getByLabel('New password', { exact: true }).fill('pat-password-2');
    await here.page.getByLabel('New password again').fill('pat-password-2');
    await here.page.getByRole('button', { name: 'Change password' }).click();
    await here.page.getByText('Your password was changed.').waitFor();

    await here.page.goto(`${server.url}/tickets`);
    expect(new URL(here.page.url()).pathname).toBe('/tickets');
    expect(await here.page.getByRole('link', { name: /Pat Customer/ }).count()).toBe(1);
    await elsewhere.page.goto(`${server.url}/tickets`);
    expect(new URL(elsewhere.page.url()).pathname).toBe('/sign-in');
  });

  it('throttles the sign-in page per account, and says for how long (without JavaScript too)', async () => {
    const browser = await fresh({ javaScriptEnabled: false });
    // An address of its own, so that the other tests' sign-ins from this machine are not counted with these.
    await browser.context.setExtraHTTPHeaders({ 'x-forwarded-for': '198.51.100.77' });
    const { page } = browser;
    const attempt = async (password: string) => {
      await page.goto(`${server.url}/sign-in`);
      await page.getByLabel('Email').fill('throttled@example.com');
      await page.getByLabel('Password').fill(password);
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
      return (await page.getByRole('alert').textContent())?.trim();
    };
    for (let i = 0; i < 10; i++) expect(await attempt(`guess ${i}`)).toBe('Email or password is incorrect.');
    // As the README says: the form's answer is the page (200) with the message; only the API answers 429.
    const answer = page.waitForResponse((response) => response.request().method() === 'POST');
    expect(await attempt('guess 10')).toBe('Too many sign-in attempts. Try again in 15 minutes.');
    expect((await answer).status()).toBe(200);
  });
});
