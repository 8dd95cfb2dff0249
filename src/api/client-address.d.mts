/** Types of ./client-address.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
export declare const CLIENT_IP_HEADER: 'x-ninefold-client-ip';
export declare function trustedProxyHops(env?: Readonly<Record<string, string | undefined>>): number;
export declare function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | readonly string[] | undefined,
  hops: number,
): string;
