// A server action the build does not hold (a page from an earlier build, a probe): Next.js 16
// answers it in its own words, 409 or 400 as text/plain, marked with ACTION_NOT_FOUND_HEADER for
// its client router, whether the action was called by a script (`next-action`) or by a form posted
// without JavaScript (`$ACTION_ID_…` in the body, which only Next.js reads). scripts/server.mjs
// watches each POST's response for that mark and re-words the answer as the catalogue's 404,
// keeping the mark. Every other response passes untouched; should a later Next.js stop marking
// such answers, they stay its own (still a 4xx).
// Plain JavaScript: the server script imports it before anything is bundled.

/** The header Next.js's client router reads to tell an unknown action from a failed one. */
export const ACTION_NOT_FOUND_HEADER = 'x-nextjs-action-not-found';

/**
 * Watches a Node response: when Next.js has marked it as an unknown action and ends it with its
 * own short text, the status, headers and body become `refusal()`'s instead. The mark is read
 * when the response ends, whichever way Next.js set it (setHeader, or appendHeader when it copies
 * a rendered result's headers).
 */
export function rewordUnknownAction(res, refusal) {
  const { end } = res;
  res.end = function reworded(...args) {
    res.end = end;
    if (this.headersSent || this.getHeader(ACTION_NOT_FOUND_HEADER) === undefined) return end.apply(this, args);
    const { status, headers, body } = refusal();
    this.statusCode = status;
    this.removeHeader('etag');
    for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
    this.setHeader('content-length', String(Buffer.byteLength(body)));
    return end.call(this, body);
  };
}
