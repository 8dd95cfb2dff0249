/** Types of ./outage-errors.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
import type { ServerResponse } from 'node:http';
type Answer = { status: number; headers: Record<string, string>; body: string };
export declare function replaceOutageErrors(res: ServerResponse, outage: () => Answer | null | undefined | Promise<Answer | null>): void;
