/** Types of ./request-scheme.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
export declare const PROTO_HEADER: 'x-ninefold-proto';
export declare function requestProtocol(
  encrypted: boolean,
  forwardedProto: string | readonly string[] | undefined,
  hops: number,
): 'https' | 'http';
export declare function isHttpsRequest(headers: { get(name: string): string | null }): boolean;
