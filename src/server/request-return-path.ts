/**
 * Where to send a browser back to after signing in (the `next` parameter): only a path of this
 * site, else the home page. Browsers read "//host", "/\host" and "\/host" as another host, skip
 * tabs and newlines inside an address ("/\t/host" is "//host"), and a scheme ("https:", "javascript:")
 * leaves the site; a server or proxy on the way may decode "%2F" or "%5C" once more, so the decoded
 * forms are held to the same rule. The value is returned as given, never decoded.
 */

const MAX_LENGTH = 2000;
const BASE = 'http://return-path.invalid';
/** ASCII controls (tab, newline...), DEL and the C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/** Two slashes (either way), with controls or spaces between or before them: another host. */
const ANOTHER_HOST = /^[\s\u0000-\u001f\u007f-\u009f]*[/\\][\s\u0000-\u001f\u007f-\u009f]*[/\\]/;
/** A scheme ("javascript:", "data:", "https:"), controls or spaces before it allowed. */
const SCHEME = /^[\s\u0000-\u001f\u007f-\u009f]*[a-z][a-z0-9+.-]*:/i;

function isHostileForm(text: string): boolean {
  return ANOTHER_HOST.test(text) || SCHEME.test(text) || text.includes('\\');
}

export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return '/';
  if (!value.startsWith('/') || CONTROL.test(value) || isHostileForm(value)) return '/';
  try {
    // What a browser makes of it: still this site.
    if (new URL(value, BASE).origin !== BASE) return '/';
    let decoded = value;
    for (let round = 0; round < 5; round++) {
      const next = decodeURIComponent(decoded);
      if (next === decoded) break;
      decoded = next;
      if (isHostileForm(decoded) || new URL(decoded.replace(CONTROLS, ''), BASE).origin !== BASE) return '/';
    }
  } catch {
    // Not decodable ("%E0%A4%A"), or not an address at all.
    return '/';
  }
  return value;
}
