const formats = new Map<string, Intl.DateTimeFormat>();

/** "March 4, 2026" in the reader's zone: an article's date, without the time of day. */
export function ArticleDate({ date, zone }: { date: Date; zone: string }) {
  const format = formats.get(zone) ?? formats.set(zone, new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: zone })).get(zone)!;
  return <time dateTime={date.toISOString()}>{format.format(date)}</time>;
}
