/** Types of ./door-methods.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
import type { RequestPlace } from './build-routes.mjs';
export declare function methodAnswer(method: string | undefined, kind: RequestPlace['kind']): { status: 204 | 405; allow: string } | null;
