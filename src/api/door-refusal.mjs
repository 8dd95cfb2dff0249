// Refusals that scripts/server.mjs answers itself, before either door: a change sent from another
// site, a server action that does not exist. Next.js would answer the first with a 500 (its CSRF
// check throws) and the second in its own words; these are the catalogue's, as problem+json for a
// script and as a small page for a browser's form post. Plain JavaScript (the server script runs
// before anything is bundled), so the words are copied from src/engine/errors/catalogue.ts; a unit
// test (src/api/http-door.test.ts) keeps them equal.

export const DOOR_ERRORS = {
  FORBIDDEN: { status: 403, title: 'Forbidden', message: 'You are not allowed to do this.' },
  NOT_FOUND: { status: 404, title: 'Not found', message: 'This page or record does not exist, or you cannot see it.' },
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

/** Status, headers and body of a refusal with a catalogue code of DOOR_ERRORS and a detail of its own. */
export function doorRefusal(code, detail, asPage) {
  const { status, title, message } = DOOR_ERRORS[code];
  if (asPage) {
    const body = doorPage({ status, title, paragraphs: [message, detail], link: { href: '/', label: 'Go home' } });
    return { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body };
  }
  const problem = { type: problemTypeOf(code), title, status, detail, code };
  return { status, headers: { 'content-type': 'application/problem+json; charset=utf-8', 'cache-control': 'no-store' }, body: JSON.stringify(problem) };
}
