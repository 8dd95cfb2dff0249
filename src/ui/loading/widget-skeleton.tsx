/**
 * The place of a home or dashboard widget while its numbers load (the page streams: its heading
 * and the widgets ready first are shown at once). Untitled: a widget the viewer may not see is
 * left out without a trace, so its title must not show before it is known. Busy, with words,
 * for assistive technology.
 */
export function WidgetSkeleton() {
  return (
    <section aria-busy="true" aria-label="Loading" className="min-w-0 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs sm:p-5">
      <p className="sr-only">Loading…</p>
      <div aria-hidden="true" className="mt-3 animate-pulse space-y-2 motion-reduce:animate-none">
        <div className="h-4 w-2/3 rounded bg-zinc-100" />
        <div className="h-4 w-1/2 rounded bg-zinc-100" />
        <div className="h-4 w-3/4 rounded bg-zinc-100" />
      </div>
    </section>
  );
}
