/** Types of ./cross-origin.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
type NodeHeaders = Readonly<Record<string, string | string[] | undefined>>;
export declare function addressedHost(headers: NodeHeaders, trustForwarding: boolean): string | undefined;
export declare function crossOriginReason(method: string, headers: NodeHeaders, trustForwarding: boolean): string | null;
