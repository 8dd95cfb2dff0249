import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptureServer, type CaptureServer } from '@testing/smtp/capture-server';
import { readMail } from '@testing/smtp/read-mail';
import { composeMail } from '../mail-compose';
import { smtpMailerFromEnv } from './smtp-mailer';

// No database here: the mailer only talks SMTP, to a real server started by the test.

describe('smtpMailerFromEnv', () => {
  let smtp: CaptureServer;
  beforeAll(async () => {
    smtp = await startCaptureServer();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('is off without SMTP_URL', () => {
    expect(smtpMailerFromEnv({})).toBeNull();
    expect(smtpMailerFromEnv({ SMTP_URL: '  ', NINEFOLD_MAIL_FROM: 'a@b.example' })).toBeNull();
  });

  it('refuses settings that cannot work, naming the variable', () => {
    expect(() => smtpMailerFromEnv({ SMTP_URL: smtp.url })).toThrow(/NINEFOLD_MAIL_FROM is required/);
    expect(() => smtpMailerFromEnv({ SMTP_URL: smtp.url, NINEFOLD_MAIL_FROM: 'Helpdesk' })).toThrow(
      /NINEFOLD_MAIL_FROM is not an e-mail address/,
    );
    expect(() => smtpMailerFromEnv({ SMTP_URL: 'http://mail.example', NINEFOLD_MAIL_FROM: 'a@b.example' })).toThrow(
      /SMTP_URL must start with smtp:\/\/ or smtps:\/\//,
    );
    expect(() => smtpMailerFromEnv({ SMTP_URL: 'not a url', NINEFOLD_MAIL_FROM: 'a@b.example' })).toThrow(/SMTP_URL is not a URL/);
  });

  it('sends both parts to the recipient, authenticated, with the unsubscribe and id headers', async () => {
    const mailer = smtpMailerFromEnv({ SMTP_URL: smtp.url, NINEFOLD_MAIL_FROM: 'Helpdesk <help@example.com>' });
    expect(mailer).not.toBeNull();
    const composed = composeMail(
      { rowId: 42, to: 'carol@example.org', subject: 'Ticket <Printer> resolved', body: 'Done & dusted — "really" ✓', link: '/tickets/7' },
      'https://help.example.com',
      '/unsubscribe/tok-123',
    );
    const before = smtp.messages.length;
    await mailer!.send(composed);

    expect(smtp.messages.length).toBe(before + 1);
    const received = smtp.messages.at(-1)!;
    expect(received.recipients).toEqual(['carol@example.org']);
    expect(received.mailFrom).toBe('help@example.com');
    expect(received.user).toBe('user');

    const mail = readMail(received.raw);
    expect(mail.headers.get('from')).toBe('Helpdesk <help@example.com>');
    expect(mail.headers.get('to')).toBe('carol@example.org');
    expect(mail.headers.get('subject')).toBe('Ticket <Printer> resolved');
    expect(mail.headers.get('message-id')).toBe('<nf-mail-42@help.example.com>');
    expect(mail.headers.get('list-unsubscribe')).toBe('<https://help.example.com/unsubscribe/tok-123>');
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain('Done & dusted — "really" ✓');
    expect(mail.text).toContain('https://help.example.com/tickets/7');
    expect(mail.html).toContain('Ticket &lt;Printer&gt; resolved');
    expect(mail.html).toContain('Done &amp; dusted — &quot;really&quot; ✓');
    expect(mail.html).not.toContain('<Printer>');
  });

  it('sends the same Message-ID again for the same mail (a retry is recognisable)', async () => {
    const mailer = smtpMailerFromEnv({ SMTP_URL: smtp.url, NINEFOLD_MAIL_FROM: 'ops@example.com' })!;
    const mail = {
      to: 'dan@example.org',
      subject: 's',
      text: 't',
      html: '<p>t</p>',
      unsubscribeUrl: 'https://a.example/u',
      messageId: '<fixed-1@mail.example>',
    };
    await mailer.send(mail);
    await mailer.send(mail);
    const ids = smtp.messages.slice(-2).map((m) => readMail(m.raw).headers.get('message-id'));
    expect(ids).toEqual(['<fixed-1@mail.example>', '<fixed-1@mail.example>']);
    expect(smtp.messages.at(-1)!.recipients).toEqual(['dan@example.org']);
  });

  it('fails the send when the server refuses the credentials', async () => {
    const wrong = smtp.url.replace('secret', 'wrong');
    const mailer = smtpMailerFromEnv({ SMTP_URL: wrong, NINEFOLD_MAIL_FROM: 'ops@example.com' })!;
    await expect(
      mailer.send({ to: 'x@example.org', subject: 's', text: 't', html: 'h', unsubscribeUrl: 'https://a/u', messageId: 'm' }),
    ).rejects.toThrow(/Invalid username or password|authentication|535/i);
  });
});
