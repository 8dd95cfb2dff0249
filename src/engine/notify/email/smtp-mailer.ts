import nodemailer from 'nodemailer';
import type { Mailer, OutgoingMail } from '../mailer';

/*
 * E-mail through SMTP (nodemailer), set by the environment:
 *   SMTP_URL            smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465 (TLS)
 *   NINEFOLD_MAIL_FROM  the From address, e.g. "Helpdesk <help@example.com>"
 * Without SMTP_URL e-mail is off. Settings that cannot work are refused at start, not at the
 * first mail.
 */

export type MailEnv = Readonly<Record<string, string | undefined>>;

/** How long one step of an SMTP conversation may take: a stuck server must not hold the e-mail worker. */
const SMTP_TIMEOUT_MS = 15_000;

export function smtpMailerFromEnv(env: MailEnv): Mailer | null {
  const url = env.SMTP_URL?.trim();
  if (!url) return null;
  const from = mailFrom(env.NINEFOLD_MAIL_FROM);
  const transport = nodemailer.createTransport({
    url: smtpUrl(url),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(mail: OutgoingMail): Promise<void> {
      await transport.sendMail({
        from: from.header,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        // The same id on a retry after a crash lets the receiving side recognise the same mail.
        messageId: messageIdHeader(mail.messageId, from.domain),
        headers: {
          'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
          // RFC 8058: mail clients unsubscribe with one POST, no page to fill in.
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
    },
  };
}

function smtpUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('SMTP_URL is not a URL: expected smtp://user:password@host:port or smtps://…');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, not ${parsed.protocol}//`);
  }
  if (!parsed.hostname) throw new Error('SMTP_URL names no host');
  return url;
}

interface MailFrom {
  readonly header: string;
  /** The domain of the From address: Message-IDs are made unique under it. */
  readonly domain: string;
}

function mailFrom(value: string | undefined): MailFrom {
  const from = value?.trim();
  if (!from) throw new Error('NINEFOLD_MAIL_FROM is required when SMTP_URL is set (e.g. "Helpdesk <help@example.com>")');
  const address = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(from)?.[1] ?? from;
  const at = address.lastIndexOf('@');
  if (at < 1 || /\s/.test(address) || at === address.length - 1) {
    throw new Error(`NINEFOLD_MAIL_FROM is not an e-mail address: "${from}" (e.g. "Helpdesk <help@example.com>")`);
  }
  return { header: from, domain: address.slice(at + 1) };
}

/** A Message-ID as RFC 5322 writes it, `<left@right>`, from the caller's stable id. */
function messageIdHeader(id: string, domain: string): string {
  const bare = id.replace(/^<|>$/g, '');
  return bare.includes('@') ? `<${bare}>` : `<${bare}@${domain}>`;
}
