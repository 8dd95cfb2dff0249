/** Types of ./request-target.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
export declare function normalisedTarget(target: string | undefined): { path: string; search: string } | null;
