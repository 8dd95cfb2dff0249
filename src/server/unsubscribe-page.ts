import 'server-only';

/*
 * The unsubscribe pages (src/app/unsubscribe): plain HTML written here rather than a React page,
 * because one address must answer both a GET (a page asking to confirm: a mail scanner that
 * follows links unsubscribes nobody) and the one-click POST of RFC 8058, which only a route
 * handler receives. A form posting to the same address works without JavaScript.
 */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(appTitle: string, heading: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)} · ${escapeHtml(appTitle)}</title>
<style>body{font-family:system-ui,sans-serif;line-height:1.5;color:#18181b;max-width:36rem;margin:3rem auto;padding:0 1rem}
button{font:inherit;padding:.4rem .9rem;border-radius:.375rem;border:1px solid #3f3f46;background:#18181b;color:#fff;cursor:pointer}
a{color:#1d4ed8}</style></head>
<body><main><h1>${escapeHtml(heading)}</h1>${body}</main></body></html>`;
}

const HTML = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/** GET: what the link turns off, and a button that does it. */
export function confirmPage(appTitle: string, label: string): Response {
  const body = `<p>Stop the e-mails of <strong>${escapeHtml(label)}</strong>? You still see them in the application's inbox.</p>
<form method="post"><button type="submit">Unsubscribe</button></form>
<p><a href="/account">Choose all your notifications on your account page</a></p>`;
  return new Response(page(appTitle, 'Unsubscribe', body), { headers: HTML });
}

/** After the POST from the confirm page's form. */
export function donePage(appTitle: string, label: string): Response {
  const body = `<p>You will no longer receive e-mails of <strong>${escapeHtml(label)}</strong>.</p>
<p><a href="/account">Change your notifications on your account page</a></p>`;
  return new Response(page(appTitle, 'Unsubscribed', body), { headers: HTML });
}

/** A link this application did not sign (or whose kind the spec no longer has): the catalogue's message. */
export function invalidPage(appTitle: string, status: number, message: string): Response {
  return new Response(page(appTitle, 'Link not valid', `<p>${escapeHtml(message)}</p>`), { status, headers: HTML });
}
