/** Types of ./build-routes.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
export type RouteKind = 'file' | 'route' | 'page';
/** Where a request goes, as scripts/server.mjs decided once: its normalised path, and what is there. */
export interface RequestPlace {
  readonly path: string;
  readonly kind: RouteKind | 'api';
}
export interface BuildRoutes {
  readonly files: ReadonlySet<string>;
  readonly statics: ReadonlyMap<string, RouteKind>;
  readonly dynamics: readonly { readonly regex: RegExp; readonly kind: RouteKind }[];
}
export declare function readBuildRoutes(root: string, distDir?: string): BuildRoutes | null;
export declare function routeKind(routes: BuildRoutes | null, pathname: string): RouteKind;
