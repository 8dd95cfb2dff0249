/** Types of ./response-headers.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
export declare function newNonce(): string;
export declare function contentSecurityPolicy(nonce: string): string;
export declare function securityHeaders(policy: string, https: boolean): Readonly<Record<string, string>>;
