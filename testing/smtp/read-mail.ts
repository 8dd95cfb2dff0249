/*
 * Just enough MIME to read what the capture server received: the top headers (unfolded) and
 * the decoded text/plain and text/html parts of a multipart/alternative message.
 */

export interface ReadMail {
  /** Header values by lower-case name (the first of each). */
  readonly headers: ReadonlyMap<string, string>;
  readonly text: string | null;
  readonly html: string | null;
}

export function readMail(raw: string): ReadMail {
  const { headers, body } = splitHeaders(raw);
  const parts: { headers: Map<string, string>; body: string }[] = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      parts.push(splitHeaders(chunk.replace(/^\r?\n/, '')));
    }
  } else parts.push({ headers, body });
  const part = (type: string) => {
    const found = parts.find((p) => (p.headers.get('content-type') ?? '').startsWith(type));
    return found ? decode(found.body, found.headers.get('content-transfer-encoding') ?? '7bit') : null;
  };
  return { headers, text: part('text/plain'), html: part('text/html') };
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? '' : raw.slice(end + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decode(body: string, encoding: string): string {
  const trimmed = body.replace(/\r\n$/, '');
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(trimmed.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      const bytes = trimmed.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return Buffer.from(bytes, 'latin1').toString('utf8').replace(/\r\n/g, '\n');
    }
    default:
      return trimmed.replace(/\r\n/g, '\n');
  }
}
