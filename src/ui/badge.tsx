import type { ReactNode } from 'react';
import type { Colour } from '@/engine/spec/types';
import { cn } from './cn';

/** The engine's own tones (states, statuses), and the spec's colours (an enum value's `colours`). */
export type BadgeTone = 'neutral' | 'accent' | 'warning' | 'success' | Colour;

// Each pairing passes WCAG AA on light and dark themes (theme.css mirrors these hues).
const NEUTRAL = 'bg-zinc-100 text-zinc-700 ring-zinc-500/20';
const WARNING = 'bg-amber-50 text-amber-800 ring-amber-600/20';
const SUCCESS = 'bg-emerald-50 text-emerald-700 ring-emerald-600/20';

const TONES: Record<BadgeTone, string> = {
  neutral: NEUTRAL,
  accent: 'bg-accent-50 text-accent-700 ring-accent-600/20',
  warning: WARNING,
  success: SUCCESS,
  gray: NEUTRAL,
  red: 'bg-red-50 text-red-700 ring-red-600/20',
  orange: 'bg-orange-50 text-orange-800 ring-orange-600/20',
  yellow: WARNING,
  green: SUCCESS,
  blue: 'bg-blue-50 text-blue-700 ring-blue-600/20',
  purple: 'bg-violet-50 text-violet-700 ring-violet-600/20',
};

export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', TONES[tone])}>
      {children}
    </span>
  );
}
