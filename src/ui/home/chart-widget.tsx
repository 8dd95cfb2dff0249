import type { BoundOps } from '@/engine/ops/ops';
import type { AppModel } from '@/engine/spec/model';
import type { ChartWidgetModel } from '@/engine/spec/screens/home-model';
import { formatNumber } from './format-number';
import { unlessRefused } from './refused';
import { WidgetCard } from './widget-card';
import { LineChart, type ChartSeries } from './line-chart';

/** Records per day, one line per datetime field, drawn on the server (no script). */
export async function ChartWidget({ model, ops, widget, id }: { model: AppModel; ops: BoundOps; widget: ChartWidgetModel; id: string }) {
  const entity = model.entitiesByName[widget.entity];
  const loaded = await unlessRefused(Promise.all(widget.series.map((s) => ops.perDay(entity.name, { field: s.field, days: widget.days }))));
  if (!loaded) return null;
  const series: ChartSeries[] = widget.series.map((s, i) => ({ label: s.label, points: loaded[i] }));
  const totals = series.map((s) => `${s.label}: ${formatNumber(s.points.reduce((sum, p) => sum + p.count, 0))}`).join(', ');
  return (
    <WidgetCard title={widget.title} className="lg:col-span-2">
      <LineChart
        id={id}
        title={widget.title}
        summary={`${entity.pluralLabel} per day over the last ${widget.days} days (UTC). ${totals}.`}
        series={series}
      />
    </WidgetCard>
  );
}
