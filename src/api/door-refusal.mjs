// Refusals that scripts/server.mjs answers itself, before either door: a change sent from another
// site, a server action that does not exist, an address that cannot be read, a method no door
// serves, a server-action body that is too large or not what a form sends. Next.js would answer
// these with a 500 or in its own words; these are the catalogue's, as problem+json for a script
// and as a small page for a browser's form post. Plain JavaScript (the server script runs
// before anything is bundled), so the words are copied from src/engine/errors/catalogue.ts; a unit
// test (src/api/http-door.test.ts) keeps them equal.

export const DOOR_ERRORS = {
  VALIDATION_FAILED: { status: 422, title: 'Validation failed', message: 'Some values are not valid. Check the fields marked below.' },
  FORBIDDEN: { status: 403, title: 'Forbidden', message: 'You are not allowed to do this.' },
  NOT_FOUND: { status: 404, title: 'Not found', message: 'This page or record does not exist, or you cannot see it.' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed', message: 'This address does not accept that method.' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload too large', message: 'The request is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type', message: 'Send JSON with content-type application/json.' },
};

/** The same URI as src/api/problem.ts problemType(). */
export function problemTypeOf(code) {
  return `https://ninefold.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`;
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The small page every answer before Next.js gives a browser (a refusal, an outage, too many
 * requests): no script, no stylesheet, the catalogue's words. With `refreshSeconds` it reloads
 * itself (a GET of the same address) once that time has passed.
 */
export function doorPage({ status, title, paragraphs, link, refreshSeconds }) {
  const refresh = refreshSeconds === undefined ? '' : `<meta http-equiv="refresh" content="${refreshSeconds}">`;
  return [
    '<!DOCTYPE html>',
    `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refresh}<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; text-align: center">',
    `<p>${status}</p><h1>${escapeHtml(title)}</h1>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
    '</body></html>',
  ].join('\n');
}

/** A browser's own navigation (a form posted without JavaScript) gets a page; scripts get problem+json. */
export function wantsPage(headers) {
  if (headers['next-action'] !== undefined || headers.rsc !== undefined) return false;
  const accept = String(headers.accept ?? '');
  return accept.includes('text/html');
}

/**
 * Status, headers and body of a refusal with a catalogue code of DOOR_ERRORS and a detail of its
 * own. The page leaves out the catalogue's message where it speaks of something a page does not
 * have (fields marked below, JSON): the detail says what is wrong.
 */
export function doorRefusal(code, detail, asPage) {
  const { status, title, message } = DOOR_ERRORS[code];
  if (asPage) {
    const paragraphs = code === 'VALIDATION_FAILED' || code === 'UNSUPPORTED_MEDIA_TYPE' ? [detail] : [message, detail];
    const body = doorPage({ status, title, paragraphs, link: { href: '/', label: 'Go home' } });
    return { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body };
  }
  const problem = { type: problemTypeOf(code), title, status, detail, code };
  return {
    status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify(problem),
  };
}
