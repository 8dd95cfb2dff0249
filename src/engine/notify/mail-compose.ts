import type { OutgoingMail } from './mailer';

/*
 * An e-mail as it leaves: plain text and HTML of the same words (the title, the text as the
 * recipient may read it, a link to the record), the unsubscribe link in both and in the header,
 * and a Message-ID stable per mail row, so that a mail sent again after a crash is recognisably
 * the same one.
 */

export interface MailContent {
  readonly rowId: number;
  readonly to: string;
  readonly subject: string;
  /** Paragraphs of plain text (the digest's has one per notification). */
  readonly body: string;
  /** The record's path ('/tickets/12'), or the inbox's for a digest. */
  readonly link: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `origin`: the application's public address (NINEFOLD_PUBLIC_URL), without a trailing slash. */
export function composeMail(content: MailContent, origin: string, unsubscribePath: string): OutgoingMail {
  const link = `${origin}${content.link}`;
  const unsubscribeUrl = `${origin}${unsubscribePath}`;
  const host = new URL(origin).hostname || 'localhost';
  const text = [content.body, `Open: ${link}`, `Stop these e-mails: ${unsubscribeUrl}`].filter((part) => part !== '').join('\n\n');
  const paragraphs = content.body
    .split(/\n{2,}/)
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #18181b">
<h1 style="font-size: 18px">${escapeHtml(content.subject)}</h1>
${paragraphs}
<p><a href="${escapeHtml(link)}">Open in the application</a></p>
<p style="font-size: 12px; color: #52525b"><a href="${escapeHtml(unsubscribeUrl)}">Stop these e-mails</a></p>
</body></html>`;
  return { to: content.to, subject: content.subject, text, html, unsubscribeUrl, messageId: `<nf-mail-${content.rowId}@${host}>` };
}
