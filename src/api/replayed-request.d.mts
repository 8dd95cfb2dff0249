/** Types of ./replayed-request.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
import type { IncomingMessage } from 'node:http';
export declare function replayedRequest(
  req: IncomingMessage,
  body: Buffer | null,
  changes?: { method?: string; url?: string; headers?: Record<string, string | null> },
): IncomingMessage;
export declare function readBodyUpTo(req: IncomingMessage, maxBytes: number): Promise<Buffer | null>;
