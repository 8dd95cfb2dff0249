import { formatCount } from '@/engine/numbers/format';

export interface ChartSeries {
  readonly label: string;
  /** One per day, oldest first; every series has the same days. */
  readonly points: readonly { readonly day: string; readonly count: number }[];
}

/** Colours of the lines, in order (Tailwind text colours: the SVG draws in currentColor). */
const COLOURS = ['text-accent-600', 'text-emerald-600', 'text-amber-600', 'text-rose-600'];
const WIDTH = 600;
const HEIGHT = 160;

/**
 * A line chart as SVG that scales to its box (strokes keep their width), with its numbers in
 * words: a <title> and <desc> for assistive technology and a table of every day under a
 * disclosure, so nothing is only in the picture.
 */
export function LineChart({
  id,
  title,
  summary,
  series,
  locale,
}: {
  id: string;
  title: string;
  summary: string;
  series: readonly ChartSeries[];
  /** The locale counts are written in (the model's `locale`). */
  locale: string;
}) {
  const days = series[0]?.points.map((p) => p.day) ?? [];
  const max = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.count)));
  const x = (i: number) => (days.length <= 1 ? WIDTH / 2 : (i / (days.length - 1)) * WIDTH);
  const y = (count: number) => HEIGHT - (count / max) * HEIGHT;
  const gridLines = [0.25, 0.5, 0.75].map((f) => HEIGHT * f);
  return (
    <figure className="m-0">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-zinc-600" aria-hidden="true">
        {series.map((s, i) => (
          <span key={s.label} className="inline-flex items-center gap-1.5">
            <span className={`inline-block h-0.5 w-4 bg-current ${COLOURS[i % COLOURS.length]}`} />
            {s.label}
          </span>
        ))}
      </div>
      <div className="mt-2 flex gap-2">
        <div className="flex w-8 shrink-0 flex-col justify-between text-right text-[11px] text-zinc-500 tabular-nums" aria-hidden="true">
          <span>{formatCount(max, locale)}</span>
          <span>0</span>
        </div>
        <svg
          role="img"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-desc`}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          className="h-40 min-w-0 flex-1 overflow-visible border-b border-l border-zinc-200"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{summary}</desc>
          {gridLines.map((gy) => (
            <line
              key={gy}
              x1={0}
              x2={WIDTH}
              y1={gy}
              y2={gy}
              className="text-zinc-100"
              stroke="currentColor"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {series.map((s, i) => (
            <polyline
              key={s.label}
              className={COLOURS[i % COLOURS.length]}
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
              strokeLinejoin="round"
              vectorEffect="non-scaling-stroke"
              points={s.points.map((p, j) => `${x(j).toFixed(1)},${y(p.count).toFixed(1)}`).join(' ')}
            />
          ))}
        </svg>
      </div>
      <div className="mt-1 flex justify-between pl-10 text-[11px] text-zinc-500" aria-hidden="true">
        <span>{days[0]}</span>
        <span>{days[days.length - 1]}</span>
      </div>
      <figcaption className="mt-2 text-xs text-zinc-600">{summary}</figcaption>
      <details className="mt-2 text-xs">
        <summary className="cursor-pointer text-accent-700 hover:underline">Numbers per day</summary>
        <div className="mt-2 max-h-64 overflow-y-auto">
          <table className="w-full text-left tabular-nums">
            <caption className="sr-only">{title}: per day</caption>
            <thead>
              <tr className="text-zinc-500">
                <th scope="col" className="py-1 pr-4 font-medium">
                  Day
                </th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="py-1 pr-4 font-medium">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="text-zinc-700">
              {days.map((day, j) => (
                <tr key={day} className="border-t border-zinc-100">
                  <th scope="row" className="py-1 pr-4 font-normal">
                    {day}
                  </th>
                  {series.map((s) => (
                    <td key={s.label} className="py-1 pr-4">
                      {formatCount(s.points[j]?.count ?? 0, locale)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
