/** Types of ./unknown-action.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
export declare const ACTION_NOT_FOUND_HEADER: 'x-nextjs-action-not-found';
/** What of a Node response (http.ServerResponse) the re-wording uses. */
export interface WatchedResponse {
  statusCode: number;
  readonly headersSent: boolean;
  setHeader(name: string, value: string | number | readonly string[]): unknown;
  removeHeader(name: string): void;
  getHeader(name: string): unknown;
  end(chunk?: string): unknown;
}
export declare function rewordUnknownAction(res: WatchedResponse, refusal: () => { status: number; headers: Record<string, string>; body: string }): void;
