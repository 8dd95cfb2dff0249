/** Types of ./incoming-headers.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
export interface RewritableRequest {
  readonly rawHeaders: string[];
  readonly headers: Record<string, string | string[] | undefined>;
}
export declare function isRefusedRequestHeader(name: string, trustForwarding: boolean): boolean;
export declare function rewriteRequestHeaders(
  req: RewritableRequest,
  trustForwarding: boolean,
  own: Readonly<Record<string, string>>,
): void;
