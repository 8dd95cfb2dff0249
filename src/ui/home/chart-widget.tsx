import type { BoundOps } from '@/engine/ops/ops';
import type { AppModel } from '@/engine/spec/model';
import type { ChartWidgetModel } from '@/engine/spec/screens/home-model';
import { formatCount } from '@/engine/numbers/format';
import { unlessRefused } from './refused';
import { WidgetCard } from './widget-card';
import { LineChart, type ChartSeries } from './line-chart';
import { knownEntity } from '../known-names';

/** Records per day, one line per datetime field, drawn on the server (no script). */
export async function ChartWidget({ model, ops, widget, id }: { model: AppModel; ops: BoundOps; widget: ChartWidgetModel; id: string }) {
  const entity = knownEntity(model, widget.entity);
  const series: ChartSeries[] | null = await unlessRefused(
    Promise.all(
      widget.series.map(async (s) => ({ label: s.label, points: await ops.perDay(entity.name, { field: s.field, days: widget.days }) })),
    ),
  );
  if (!series) return null;
  const totals = series
    .map(
      (s) =>
        `${s.label}: ${formatCount(
          s.points.reduce((sum, p) => sum + p.count, 0),
          model.locale,
        )}`,
    )
    .join(', ');
  return (
    <WidgetCard title={widget.title} className="lg:col-span-2">
      <LineChart
        id={id}
        title={widget.title}
        summary={`${entity.pluralLabel} per day over the last ${widget.days} days (UTC). ${totals}.`}
        series={series}
        locale={model.locale}
      />
    </WidgetCard>
  );
}
