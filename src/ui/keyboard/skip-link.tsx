/**
 * The first stop of Tab on every page: "Skip to content" jumps past the header and navigation
 * to the page's main region (`#main`, focusable by script). Hidden until focused.
 */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-zinc-900 shadow-lg ring-1 ring-zinc-300 focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
    >
      Skip to content
    </a>
  );
}
