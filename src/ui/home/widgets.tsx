import type { BoundOps } from '@/engine/ops/ops';
import type { Actor } from '@/engine/ground/actor';
import type { AppModel } from '@/engine/spec/model';
import { shownWidgets } from './shown-widgets';
import { type WidgetModel } from '@/engine/spec/screens/home-model';
import { ChartWidget } from './chart-widget';
import { CountsWidget } from './counts-widget';
import { ListWidget } from './list-widget';

/**
 * A dashboard of widgets (the home's, or a dashboard route's): each loads its own numbers
 * through ops, in parallel, and one the viewer may not see (not for their roles, or on what they
 * may not list or read: ops.mayQuery, asked first so that nothing is refused) is left out without a trace.
 * `params` are the route's parameters, for conditions that use `{ param }`.
 */
export function Widgets({
  model,
  ops,
  actor,
  widgets,
  params,
  zone,
}: {
  model: AppModel;
  ops: BoundOps;
  actor: Actor;
  widgets: readonly WidgetModel[];
  params?: Readonly<Record<string, string | number | boolean>>;
  /** The viewer's zone (src/server/viewer-zone.ts), for date-times. */
  zone: string;
}) {
  // Keyed by place among all the widgets (a chart's id), so the others are skipped rather than left out.
  const shown = new Set(shownWidgets(widgets, ops, actor));
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {widgets.map((widget, index) => {
        if (!shown.has(widget)) return null;
        const key = `${widget.kind}-${index}`;
        switch (widget.kind) {
          case 'counts':
            return <CountsWidget key={key} model={model} ops={ops} actor={actor} widget={widget} params={params} />;
          case 'list':
            return <ListWidget zone={zone} key={key} model={model} ops={ops} actor={actor} widget={widget} params={params} />;
          case 'chart':
            return <ChartWidget key={key} model={model} ops={ops} widget={widget} id={`widget-${index}`} />;
        }
      })}
    </div>
  );
}
