/** Types of ./start-progress.mjs (plain JavaScript, run by node in `npm start`). */
export declare const HEARTBEAT_MS: number;
export declare const TYPE_CHECK_NOTICE: string;
export declare function formatElapsed(ms: number): string;
export declare function buildPhase(line: string): string | null;
export interface BuildWatch {
  output(text: string, now: number): void;
  tick(now: number): void;
}
export declare function buildWatch(options: { startedAt: number; write: (line: string) => void; heartbeatMs?: number }): BuildWatch;
export declare function missingInstall(root: string): string | null;
