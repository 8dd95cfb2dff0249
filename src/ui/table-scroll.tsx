'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { cn } from './cn';

interface Edges {
  /** The content is wider than the region: it scrolls sideways. */
  readonly scrolls: boolean;
  readonly moreLeft: boolean;
  readonly moreRight: boolean;
}

/**
 * A table's sideways scroll, said and reachable: a labelled group ("Table: Loans", as the spec
 * document's tables are) that, while its content is wider than it (many columns, a narrow
 * screen), is in the tab order so that arrow keys scroll it,
 * and shades each edge that has more beyond it (overlay scrollbars show nothing until one scrolls).
 * Rendered focusable, so that it is reachable before (or without) JavaScript too; once measured,
 * a table that fits is no stop on the way.
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  /** The table's caption. */
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState<Edges>({ scrolls: true, moreLeft: false, moreRight: false });

  useEffect(() => {
    const region = ref.current;
    if (!region) return;
    const measure = () => {
      const scrolls = region.scrollWidth > region.clientWidth + 1;
      const next = {
        scrolls,
        moreLeft: scrolls && region.scrollLeft > 1,
        moreRight: scrolls && region.scrollLeft + region.clientWidth < region.scrollWidth - 1,
      };
      setEdges((now) => (now.scrolls === next.scrolls && now.moreLeft === next.moreLeft && now.moreRight === next.moreRight ? now : next));
    };
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(region);
    for (const child of region.children) resized.observe(child);
    region.addEventListener('scroll', measure, { passive: true });
    return () => {
      resized.disconnect();
      region.removeEventListener('scroll', measure);
    };
  }, []);

  const shade = 'pointer-events-none absolute inset-y-px w-5 from-zinc-900/15 to-transparent transition-opacity';
  return (
    <div className="relative">
      <div
        ref={ref}
        role="group"
        aria-label={`Table: ${label}`}
        tabIndex={edges.scrolls ? 0 : undefined}
        className={cn('overflow-x-auto', className)}
      >
        {children}
      </div>
      <div aria-hidden="true" className={cn(shade, 'left-px rounded-l-lg bg-linear-to-r', edges.moreLeft ? 'opacity-100' : 'opacity-0')} />
      <div
        aria-hidden="true"
        className={cn(shade, 'right-px rounded-r-lg bg-linear-to-l', edges.moreRight ? 'opacity-100' : 'opacity-0')}
      />
    </div>
  );
}
