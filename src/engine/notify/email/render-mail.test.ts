import { describe, expect, it } from 'vitest';
import { renderDigestMail, renderNotificationMail } from './render-mail';

const hostile = `<script>alert("x")</script> & 'quotes'`;

describe('renderNotificationMail', () => {
  const mail = renderNotificationMail({
    appName: 'Helpdesk',
    title: `Ticket ${hostile}`,
    text: 'First line\nsecond line\n\nNew paragraph <b>',
    link: 'https://help.example.com/tickets/7?a=1&b="2"',
    preferencesUrl: 'https://help.example.com/account/notifications',
  });

  it('puts the title in the subject, and the text, link and preferences in the plain part', () => {
    expect(mail.subject).toBe(`[Helpdesk] Ticket ${hostile}`);
    expect(mail.text).toContain(`Ticket ${hostile}`);
    expect(mail.text).toContain('First line\nsecond line\n\nNew paragraph <b>');
    expect(mail.text).toContain('Open: https://help.example.com/tickets/7?a=1&b="2"');
    expect(mail.text).toContain('https://help.example.com/account/notifications');
  });

  it('escapes every value in the HTML part', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;');
    expect(mail.html).toContain('href="https://help.example.com/tickets/7?a=1&amp;b=&quot;2&quot;"');
    expect(mail.html).toContain('<p>First line<br>second line</p>');
    expect(mail.html).toContain('<p>New paragraph &lt;b&gt;</p>');
  });

  it('loads nothing from elsewhere', () => {
    expect(mail.html).not.toMatch(/<img|<link|src=|url\(/i);
  });

  it('refuses to turn a non-web link into a clickable one', () => {
    const sneaky = renderNotificationMail({
      appName: 'A',
      title: 't',
      text: 'x',
      link: 'javascript:alert(1)',
      preferencesUrl: 'https://a.example/p',
    });
    expect(sneaky.html).not.toContain('javascript:');
  });
});

describe('renderDigestMail', () => {
  const mail = renderDigestMail({
    appName: `Desk ${hostile}`,
    day: '28 November 2026',
    items: [
      { title: 'One <i>', text: 'a & b', link: 'https://x.example/1' },
      { title: 'Two', text: 'c', link: 'https://x.example/2?q=<>' },
    ],
    preferencesUrl: 'https://x.example/prefs',
  });

  it('lists every item in both parts and counts them in the subject', () => {
    expect(mail.subject).toBe(`[Desk ${hostile}] Digest for 28 November 2026 (2 notifications)`);
    expect(mail.text).toContain('* One <i>\n  a & b\n  https://x.example/1');
    expect(mail.text).toContain('* Two');
    expect(mail.html).toContain('<strong>One &lt;i&gt;</strong>');
    expect(mail.html).toContain('href="https://x.example/2?q=&lt;&gt;"');
    expect(mail.html).toContain('<p>a &amp; b</p>');
  });

  it('escapes the app name in the HTML part', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Desk &lt;script&gt;');
  });

  it('says one notification in the singular', () => {
    const one = renderDigestMail({
      appName: 'A',
      day: 'd',
      items: [{ title: 't', text: 'x', link: 'https://a/1' }],
      preferencesUrl: 'https://a/p',
    });
    expect(one.subject).toBe('[A] Digest for d (1 notification)');
  });
});
