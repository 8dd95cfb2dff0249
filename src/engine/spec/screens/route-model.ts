// The custom routes' part of the built model, as types only: spec/model.ts names them without
// importing their builder (routes.ts), which itself reads the model.
import type { WidgetModel } from './home-model';
import type { Condition, ParamType, RouteComponentProps } from '../types';

/** One segment of a route's path: a fixed word, or a typed parameter. */
export type RouteSegment =
  { readonly kind: 'literal'; readonly value: string } | { readonly kind: 'param'; readonly name: string; readonly type: ParamType };

/** What a route shows, with the defaults of its kind filled in. */
export type RouteShowModel =
  | {
      readonly kind: 'list';
      readonly entity: string;
      readonly where: Condition | null;
      readonly sort: string | null;
      readonly columns: readonly string[] | null;
    }
  | { readonly kind: 'record'; readonly entity: string; readonly idParam: string }
  | { readonly kind: 'widgets'; readonly widgets: readonly WidgetModel[] }
  | { readonly kind: 'component'; readonly component: (props: RouteComponentProps) => unknown };

export interface RouteModel {
  readonly name: string;
  readonly path: string;
  readonly segments: readonly RouteSegment[];
  readonly title: string;
  readonly description: string | null;
  /** Who may open it; null: every signed-in user. */
  readonly roles: readonly string[] | null;
  readonly navigation: boolean;
  readonly show: RouteShowModel;
}
