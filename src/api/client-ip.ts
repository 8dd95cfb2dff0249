/**
 * The client's address, for the per-address limits: the first X-Forwarded-For entry (set by the
 * proxy in front; without one, clients could pick their own), else X-Real-IP, else loopback.
 */
export function clientIp(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  const address = forwarded || headers.get('x-real-ip')?.trim() || '127.0.0.1';
  return address.slice(0, 100);
}
