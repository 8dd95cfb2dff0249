/** Types of ./door-refusal.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
type NodeHeaders = Readonly<Record<string, string | string[] | undefined>>;
export interface DoorError {
  readonly status: number;
  readonly title: string;
  readonly message: string;
}
export declare const DOOR_ERRORS: {
  readonly VALIDATION_FAILED: DoorError;
  readonly FORBIDDEN: DoorError;
  readonly NOT_FOUND: DoorError;
  readonly METHOD_NOT_ALLOWED: DoorError;
  readonly PAYLOAD_TOO_LARGE: DoorError;
  readonly UNSUPPORTED_MEDIA_TYPE: DoorError;
};
export declare function problemTypeOf(code: string): string;
export declare function doorPage(page: {
  readonly status: number;
  readonly title: string;
  readonly paragraphs: readonly string[];
  readonly link: { readonly href: string; readonly label: string };
  readonly refreshSeconds?: number;
}): string;
export declare function wantsPage(headers: NodeHeaders): boolean;
export declare function doorRefusal(
  code: keyof typeof DOOR_ERRORS,
  detail: string,
  asPage: boolean,
): { status: number; headers: Record<string, string>; body: string };
