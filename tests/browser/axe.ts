import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

/** The WCAG 2.1 A and AA rules: the level the project promises. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe's own script, read once: injected into each page as it is checked. */
const AXE_SOURCE: string = (createRequire(__filename)('axe-core') as { source: string }).source;

/**
 * Has every page the context opens load axe before its own scripts: given once, where injecting it
 * into each page sent and started axe's half a megabyte again, about a third of a check's time.
 */
export async function preloadAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: AXE_SOURCE });
}

/** One broken rule, said so that a failing `toEqual([])` tells what to fix and where. */
export interface AxeViolation {
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  /** The elements at fault, each as its CSS selectors, with axe's summary of what is wrong. */
  readonly nodes: readonly string[];
}

interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
}

/**
 * The WCAG 2.1 A and AA rules whose outcome depends on colours: all that can change when only the
 * palette does (the dark theme redefines colour variables, nothing else).
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

/**
 * Runs axe-core over the page as it is now and returns the WCAG 2.1 AA violations, none when it
 * passes; with `rules`, only those rules (to check again what a change of colours can break).
 */
export async function axeViolations(page: Page, options: { rules?: readonly string[] } = {}): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const runOnly = options.rules ? { type: 'rule', values: [...options.rules] } : { type: 'tag', values: WCAG_TAGS };
  const results = await page.evaluate(
    (only) =>
      (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(document, {
        runOnly: only,
        resultTypes: ['violations'],
      }),
    runOnly,
  );
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    nodes: violation.nodes.map(
      (node) => `${node.target.map(String).join(' ')} — ${(node.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`,
    ),
  }));
}
