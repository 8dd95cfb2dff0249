/** Types of ./action-body.mjs (plain JavaScript, imported by path from scripts/server.mjs and next.config.mjs). */
import type { RequestPlace } from './build-routes.mjs';
type NodeHeaders = Readonly<Record<string, string | string[] | undefined>>;
export declare const FORM_POST_CEILING_BYTES: number;
export declare const FORM_FILES_CEILING_BYTES: number;
export declare const ACTION_BODY_LIMITS: {
  readonly maxDepth: number;
  readonly maxValues: number;
  readonly maxParts: number;
  readonly maxArguments: number;
};
export type ActionPostKind = 'fetch' | 'form';
export declare function actionPostKind(method: string | undefined, headers: NodeHeaders, kind: RequestPlace['kind']): ActionPostKind | null;
/** What an action takes, argument by argument (src/server/actions/arguments.ts). */
export type ActionArgumentKind = 'text' | 'id' | 'state' | 'form' | 'value';
export interface KnownActions {
  readonly ids: ReadonlyMap<string, string> | null;
  argumentsOf(id: string | undefined): readonly ActionArgumentKind[] | undefined;
  /** Whether the action writes a record's files; without it (or the sizes) a body is not measured. */
  takesFiles?(id: string | undefined): boolean;
  /** The body's size, and the most a post to an action that takes no files may be. */
  readonly bytes?: number;
  readonly valuesLimit?: number;
}
export declare function actionBodyProblem(
  kind: ActionPostKind,
  contentType: string | undefined,
  bytes: Buffer,
  actions: KnownActions,
  fetchedId?: string,
): Promise<{ code: 'VALIDATION_FAILED' | 'NOT_FOUND' | 'UNSUPPORTED_MEDIA_TYPE' | 'PAYLOAD_TOO_LARGE'; detail: string } | null>;
