import { escapeHtml } from './html-escape';

/*
 * What a notification e-mail says, as plain text and as HTML. Every value comes from records
 * and the spec, so every one is escaped; the layout is a plain column with no remote images
 * (mail clients block them, and they would tell a tracker who opened what).
 */

export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface NotificationMailInput {
  readonly appName: string;
  readonly title: string;
  readonly text: string;
  /** The page the notification is about (absolute URL). */
  readonly link: string;
  /** Where the recipient changes what they are told (absolute URL). */
  readonly preferencesUrl: string;
}

export interface DigestItem {
  readonly title: string;
  readonly text: string;
  readonly link: string;
}

export interface DigestMailInput {
  readonly appName: string;
  /** The day the digest covers, as the recipient reads it (e.g. "28 November 2026"). */
  readonly day: string;
  readonly items: readonly DigestItem[];
  readonly preferencesUrl: string;
}

export function renderNotificationMail(input: NotificationMailInput): RenderedMail {
  const text = [input.title, '', input.text, '', `Open: ${input.link}`, '', footerText(input)].join('\n');
  const body = [
    `<h1 style="font-size:18px;margin:0 0 12px">${escapeHtml(input.title)}</h1>`,
    paragraphs(input.text),
    `<p>${anchor(input.link, `Open in ${input.appName}`)}</p>`,
  ].join('\n');
  return { subject: `[${input.appName}] ${input.title}`, text, html: page(input, input.title, body) };
}

export function renderDigestMail(input: DigestMailInput): RenderedMail {
  const heading = `${input.appName}: what happened on ${input.day}`;
  const count = input.items.length === 1 ? '1 notification' : `${input.items.length} notifications`;
  const textItems = input.items.map((item) => [`* ${item.title}`, indent(item.text), `  ${item.link}`].join('\n'));
  const text = [heading, `${count}.`, '', textItems.join('\n\n'), '', footerText(input)].join('\n');
  const htmlItems = input.items.map(
    (item) => `<li style="margin:0 0 12px">${anchor(item.link, item.title, 'strong')}` + `${paragraphs(item.text)}</li>`,
  );
  const body = [
    `<h1 style="font-size:18px;margin:0 0 12px">${escapeHtml(heading)}</h1>`,
    `<p>${escapeHtml(count)}.</p>`,
    `<ul style="padding-left:20px">\n${htmlItems.join('\n')}\n</ul>`,
  ].join('\n');
  return { subject: `[${input.appName}] Digest for ${input.day} (${count})`, text, html: page(input, heading, body) };
}

function footerText(input: { appName: string; preferencesUrl: string }): string {
  return `-- \nYou receive this from ${input.appName}. Choose what you are told: ${input.preferencesUrl}`;
}

function page(input: { appName: string; preferencesUrl: string }, title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family:sans-serif;font-size:15px;line-height:1.5;color:#111;max-width:600px;margin:0 auto;padding:16px">',
    body,
    '<hr style="border:0;border-top:1px solid #ccc;margin:24px 0 8px">',
    `<p style="font-size:13px;color:#555">You receive this from ${escapeHtml(input.appName)}. ` +
      `${anchor(input.preferencesUrl, 'Choose what you are told')}.</p>`,
    '</body></html>',
  ].join('\n');
}

/**
 * A link, only when it goes to a web page: the engine makes these URLs, but a `javascript:` one
 * slipping through would run in whatever mail client renders it. Anything else stays plain text.
 */
function anchor(url: string, label: string, wrap?: 'strong'): string {
  const inner = wrap ? `<${wrap}>${escapeHtml(label)}</${wrap}>` : escapeHtml(label);
  if (!/^https?:\/\//i.test(url)) return inner;
  return `<a href="${escapeHtml(url)}">${inner}</a>`;
}

/** Line breaks of a text kept: blank lines part paragraphs, single ones become <br>. */
function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .filter((part) => part.trim() !== '')
    .map((part) => `<p>${escapeHtml(part).replaceAll('\n', '<br>')}</p>`)
    .join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
