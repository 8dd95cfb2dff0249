import type { BoundOps } from '@/engine/ops/ops';
import type { Actor } from '@/engine/ground/actor';
import { showsWidgetTo, widgetQuery } from '@/engine/spec/screens/home';
import type { WidgetModel } from '@/engine/spec/screens/home-model';

/**
 * The widgets of a dashboard this viewer is shown: those for their roles, on what they may list
 * and read (ops.mayQuery, asked first so that nothing is refused or logged). The others leave no trace.
 */
export function shownWidgets<W extends WidgetModel>(widgets: readonly W[], ops: Pick<BoundOps, 'mayQuery'>, actor: Actor): W[] {
  return widgets.filter((widget) => showsWidgetTo(widget, actor.roles) && ops.mayQuery(widget.entity, widgetQuery(widget)));
}
