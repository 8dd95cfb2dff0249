/**
 * An Atom 1.0 document (RFC 4287) as text. Every text and address is escaped here, so a title
 * such as `Fish & <Chips>` reaches feed readers as written and never as markup.
 */
export interface AtomFeed {
  /** The feed's permanent id and `rel="self"` address (absolute). */
  readonly self: string;
  /** The page the feed follows (absolute). */
  readonly alternate: string;
  readonly title: string;
  readonly subtitle: string | null;
  /** The newest entry's time (or now for an empty feed). */
  readonly updated: Date;
  readonly entries: readonly AtomEntry[];
}

export interface AtomEntry {
  /** The entry's absolute address: its id and its `rel="alternate"` link. */
  readonly url: string;
  readonly title: string;
  readonly updated: Date;
  readonly published: Date | null;
  readonly summary: string | null;
  /** Null when the reader may not know who wrote it. */
  readonly author: string | null;
  readonly categories: readonly string[];
}

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for XML content and attributes; characters XML 1.0 forbids (controls) are dropped. */
export function escapeXml(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export function atomXml(feed: AtomFeed): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(feed.self)}</id>`,
    `  <title>${escapeXml(feed.title)}</title>`,
    ...(feed.subtitle ? [`  <subtitle>${escapeXml(feed.subtitle)}</subtitle>`] : []),
    `  <updated>${feed.updated.toISOString()}</updated>`,
    // Atom asks every entry for an author; entries whose author the reader may not know take the publication's name.
    `  <author><name>${escapeXml(feed.title)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(feed.self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(feed.alternate)}"/>`,
    ...feed.entries.flatMap(entryLines),
    '</feed>',
    '',
  ];
  return lines.join('\n');
}

function entryLines(entry: AtomEntry): string[] {
  return [
    '  <entry>',
    `    <id>${escapeXml(entry.url)}</id>`,
    `    <title>${escapeXml(entry.title)}</title>`,
    `    <link rel="alternate" type="text/html" href="${escapeXml(entry.url)}"/>`,
    `    <updated>${entry.updated.toISOString()}</updated>`,
    ...(entry.published ? [`    <published>${entry.published.toISOString()}</published>`] : []),
    ...(entry.author ? [`    <author><name>${escapeXml(entry.author)}</name></author>`] : []),
    ...entry.categories.map((term) => `    <category term="${escapeXml(term)}"/>`),
    ...(entry.summary ? [`    <summary>${escapeXml(entry.summary)}</summary>`] : []),
    '  </entry>',
  ];
}
