import type { DocBlock } from '@/engine/spec/document';

type WorkflowBlock = Extract<DocBlock, { kind: 'workflow' }>;

const BOX_W = 128;
const BOX_H = 40;
const GAP_X = 96;
const GAP_Y = 36;
const PAD = 24;

/**
 * States in columns by their distance from the initial state; forward steps are straight
 * arrows, steps back or sideways curve below. Plain SVG rendered on the server: no client code.
 */
function layout(block: WorkflowBlock): Map<string, { x: number; y: number; depth: number }> {
  const depth = new Map<string, number>();
  const initial = block.states.find((s) => s.initial) ?? block.states[0];
  const queue = initial ? [initial.name] : [];
  if (initial) depth.set(initial.name, 0);
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const edge of block.edges) {
      if (edge.from === state && !depth.has(edge.to)) {
        depth.set(edge.to, depth.get(state)! + 1);
        queue.push(edge.to);
      }
    }
  }
  const deepest = Math.max(0, ...depth.values());
  for (const s of block.states) if (!depth.has(s.name)) depth.set(s.name, deepest + 1);
  const rows = new Map<number, number>();
  const positions = new Map<string, { x: number; y: number; depth: number }>();
  for (const s of block.states) {
    const d = depth.get(s.name)!;
    const row = rows.get(d) ?? 0;
    rows.set(d, row + 1);
    positions.set(s.name, { x: PAD + d * (BOX_W + GAP_X), y: PAD + row * (BOX_H + GAP_Y), depth: d });
  }
  return positions;
}

export function WorkflowDiagram({ block, title }: { block: WorkflowBlock; title: string }) {
  const at = layout(block);
  const points = [...at.values()];
  const width = Math.max(...points.map((p) => p.x)) + BOX_W + PAD;
  const height = Math.max(...points.map((p) => p.y)) + BOX_H + PAD + 56;
  const markerId = `arrow-${title.replace(/\W+/g, '-')}`;
  let bends = 0;
  return (
    // Wider than a phone: focusable, so that the keyboard can scroll it too.
    <figure tabIndex={0} className="my-3 overflow-x-auto rounded-lg border border-zinc-200 bg-white p-2">
      <svg role="img" aria-label={title} width={width} height={height} viewBox={`0 0 ${width} ${height}`} className="max-w-none font-sans">
        <defs>
          <marker id={markerId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" className="fill-zinc-500" />
          </marker>
        </defs>
        {block.edges.map((edge, index) => {
          const a = at.get(edge.from)!;
          const b = at.get(edge.to)!;
          if (b.depth > a.depth) {
            const [x1, y1, x2, y2] = [a.x + BOX_W, a.y + BOX_H / 2, b.x, b.y + BOX_H / 2];
            return (
              <g key={index}>
                <line x1={x1} y1={y1} x2={x2} y2={y2} className="stroke-zinc-400" strokeWidth={1.5} markerEnd={`url(#${markerId})`} />
                <text x={(x1 + x2) / 2} y={(y1 + y2) / 2 - 6} textAnchor="middle" className="fill-zinc-600 text-[11px]">
                  {edge.label}
                </text>
              </g>
            );
          }
          // Back or sideways: a curve under the boxes, deeper for each one so labels do not collide.
          bends += 1;
          const [x1, x2] = [a.x + BOX_W / 2, b.x + BOX_W / 2];
          const y = Math.max(a.y, b.y) + BOX_H;
          const dip = y + 14 + bends * 12;
          return (
            <g key={index}>
              <path
                d={`M ${x1} ${a.y + BOX_H} C ${x1} ${dip}, ${x2} ${dip}, ${x2} ${b.y + BOX_H}`}
                fill="none"
                className="stroke-zinc-300"
                strokeWidth={1.5}
                strokeDasharray="4 3"
                markerEnd={`url(#${markerId})`}
              />
              <text x={(x1 + x2) / 2} y={dip - 2} textAnchor="middle" className="fill-zinc-500 text-[11px]">
                {edge.label}
              </text>
            </g>
          );
        })}
        {block.states.map((state) => {
          const p = at.get(state.name)!;
          return (
            <g key={state.name}>
              <rect
                x={p.x}
                y={p.y}
                width={BOX_W}
                height={BOX_H}
                rx={8}
                className={
                  state.initial
                    ? 'fill-accent-50 stroke-accent-500'
                    : state.final
                      ? 'fill-zinc-100 stroke-zinc-500'
                      : 'fill-white stroke-zinc-400'
                }
                strokeWidth={state.final ? 2.5 : 1.5}
              />
              <text x={p.x + BOX_W / 2} y={p.y + BOX_H / 2 + 4} textAnchor="middle" className="fill-zinc-900 text-[13px] font-medium">
                {state.label}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-1 px-1 text-xs text-zinc-500">
        {title}: the initial state is tinted, final states have a heavy border; dashed arrows go back.
      </figcaption>
    </figure>
  );
}
