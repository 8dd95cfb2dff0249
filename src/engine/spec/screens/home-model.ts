// The home page's and dashboards' part of the built model, as types only: spec/model.ts names them without
// importing their builder (home.ts), which itself reads the model.
import type { Condition } from '../types';

/** Counts (or sums) of records per value of one field, each linking to the list filtered by it. */
export interface CountsWidgetModel {
  readonly kind: 'counts';
  readonly entity: string;
  readonly title: string;
  /** A state, enum, boolean, reference or user field (or createdBy/updatedBy). */
  readonly by: string;
  readonly where: Condition | null;
  /** An integer or decimal field summed per value instead of counting; null: a count. */
  readonly sum: string | null;
  /** The values shown even when nothing has them (states and enum values in order, booleans); null: only the values found. */
  readonly values: readonly string[] | null;
}

/** Up to `limit` records matching a condition, with the count of all of them. */
export interface ListWidgetModel {
  readonly kind: 'list';
  readonly entity: string;
  readonly title: string;
  readonly where: Condition | null;
  /** A column name, "-" first for descending. */
  readonly sort: string;
  readonly columns: readonly string[];
  readonly limit: number;
}

/** Records per day (UTC) over the last `days` days, one series per datetime field. */
export interface ChartWidgetModel {
  readonly kind: 'chart';
  readonly entity: string;
  readonly title: string;
  readonly days: number;
  readonly series: readonly { readonly field: string; readonly label: string }[];
}

export type WidgetModel = (CountsWidgetModel | ListWidgetModel | ChartWidgetModel) & {
  /** Shown only to users with one of these roles (`public`: anyone who opens the page); null: everyone who opens it. */
  readonly roles: readonly string[] | null;
};

export interface HomeModel {
  /** The home's heading; null: the app's title. */
  readonly title: string | null;
  readonly widgets: readonly WidgetModel[];
}
