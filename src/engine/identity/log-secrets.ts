import { SETUP_CODE_ALONE, SETUP_CODE_LINE } from './setup-code';

/**
 * What a log must never hold, and the check that a whole log holds none of it (the browser
 * tests run it over every server's log at the end). The setup code's own lines (its log line and
 * the code alone below it) are the one intended exception: it is useless once an administrator exists.
 */
const PATTERNS: readonly { readonly kind: string; readonly pattern: RegExp }[] = [
  { kind: 'session cookie', pattern: /nf_session=[^;\s"]+/ },
  { kind: 'bearer token', pattern: /bearer\s+[A-Za-z0-9._~+/-]{8,}/i },
  // API tokens: "nf_" + 32 random bytes in base64url (api-tokens.ts).
  { kind: 'API token', pattern: /\bnf_[A-Za-z0-9_-]{43}\b/ },
  // Invitation links: /invite/ + 32 random bytes in base64url (invites.ts).
  { kind: 'invitation link', pattern: /\/invite\/[A-Za-z0-9_-]{43}/ },
  {
    kind: 'secret field',
    pattern: /"(password|currentPassword|newPassword|confirm|token|secret|cookie|authorization|setupCode|set-cookie)"\s*:\s*"[^"]+"/i,
  },
  { kind: 'password in a form or query', pattern: /\b(password|currentPassword|newPassword)=[^&\s"]+/i },
];

export interface LogSecret {
  /** 1-based. */
  readonly line: number;
  readonly kind: string;
}

/**
 * Where the log's text shows a secret: by shape (cookies, tokens, invitation links, password
 * fields), any of `known` (the passwords the tests used) literally, and a setup code anywhere but
 * on its own lines. Only the places are returned, never the secret itself.
 */
export function secretsInLog(text: string, known: readonly string[] = []): LogSecret[] {
  const lines = text.split('\n');
  const codeLine = (line: string) => SETUP_CODE_LINE.test(line) || SETUP_CODE_ALONE.test(line);
  const codes = new Set<string>();
  for (const line of lines) {
    if (!codeLine(line)) continue;
    const code = /setup code ([2-9A-Z]{4}-[2-9A-Z]{4})/.exec(line)?.[1];
    if (code) codes.add(code).add(code.replace('-', ''));
  }
  const literal = [...known.filter((s) => s.length >= 6), ...codes];
  const found: LogSecret[] = [];
  lines.forEach((line, index) => {
    if (codeLine(line)) return;
    for (const { kind, pattern } of PATTERNS) if (pattern.test(line)) found.push({ line: index + 1, kind });
    if (literal.some((secret) => line.includes(secret))) found.push({ line: index + 1, kind: 'known secret' });
  });
  return found;
}
