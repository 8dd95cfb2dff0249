// The first page that meets a database outage. The outage door (src/server/outage.ts) answers 503
// before Next.js once the store knows the database is down; the request that finds it out is
// already in Next.js, whose page fails with the catalogue's SERVICE_UNAVAILABLE and which can only
// answer that with a 500 (an App Router page cannot set its status). So a 500 that Next.js is
// about to send is held while the outage door has something to say (a probe under way, or down):
// when the probe says "down", the door's 503 with Retry-After goes out instead; otherwise the
// 500 goes out as it was. Any other answer is never touched.
// Plain JavaScript: the server script imports it before anything is bundled.

/**
 * Lets `outage` replace a 5xx that `res` is about to send. `outage()` is the outage door's verdict
 * for this request: null (nothing to say), an answer, or a promise of one.
 */
export function replaceOutageErrors(res, outage) {
  // The server's own headers (security headers), set before Next.js: kept on a replacement.
  const own = new Set(res.getHeaderNames());
  const { writeHead, write, end, flushHeaders } = res;
  // Calls held while the verdict is awaited; 'replaced' once the door's answer went out instead
  // (what Next.js still writes of its 500 then goes nowhere).
  let held = null;

  const replay = () => {
    const calls = held;
    held = null;
    for (const [method, args] of calls) method.apply(res, args);
  };
  const replace = (answer) => {
    held = 'replaced';
    for (const name of res.getHeaderNames()) if (!own.has(name)) res.removeHeader(name);
    writeHead.call(res, answer.status, answer.headers);
    end.call(res, res.req?.method === 'HEAD' ? undefined : answer.body);
  };

  res.writeHead = function (status, ...rest) {
    if (held) return this;
    const verdict = status >= 500 ? outage() : null;
    if (verdict === null || verdict === undefined) return writeHead.call(this, status, ...rest);
    if (typeof verdict.then !== 'function') {
      replace(verdict);
      return this;
    }
    held = [[writeHead, [status, ...rest]]];
    verdict.then(
      (answer) => (answer ? replace(answer) : replay()),
      () => replay(),
    );
    return this;
  };
  // Node writes the status line itself at the first write when none was written yet: the
  // decision to hold is taken here first, so that no byte of a held answer leaves before it.
  const decideFirst = () => {
    if (!held && !res.headersSent) res.writeHead(res.statusCode);
  };
  res.write = function (...args) {
    decideFirst();
    if (!held) return write.apply(this, args);
    if (held !== 'replaced') held.push([write, args]);
    return true;
  };
  res.end = function (...args) {
    decideFirst();
    if (!held) return end.apply(this, args);
    if (held !== 'replaced') held.push([end, args]);
    return this;
  };
  res.flushHeaders = function () {
    if (!held) flushHeaders.call(this);
  };
}
