/** Types of ./server-action-ids.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
export declare const ACTION_NOT_FOUND_HEADER: 'x-nextjs-action-not-found';
export declare function serverActionIds(root: string, distDir?: string): ReadonlyMap<string, string> | null;
export declare function isUnknownAction(ids: ReadonlyMap<string, string> | null, header: string | readonly string[] | undefined): boolean;
