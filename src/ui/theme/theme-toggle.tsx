import type { Theme } from '@/engine/preferences/preferences';
import { cn } from '../cn';
import { ThemeButton } from './theme-button';
import { THEME_CHOICES } from './theme-choices';
import { ThemeIcon } from './theme-icon';

/**
 * System / Light / Dark as one small form (a server action: it works without JavaScript), the
 * current choice pressed. `compact` shows icons only (the header); otherwise icons and words.
 */
export function ThemeToggle({
  theme,
  action,
  compact = false,
}: {
  theme: Theme;
  action: (formData: FormData) => Promise<void>;
  compact?: boolean;
}) {
  return (
    <form action={action}>
      <div role="group" aria-label="Theme" className="inline-flex rounded-md bg-zinc-100 p-0.5 ring-1 ring-inset ring-zinc-200">
        {THEME_CHOICES.map((choice) => {
          const pressed = choice.value === theme;
          return (
            <ThemeButton
              key={choice.value}
              value={choice.value}
              aria-pressed={pressed}
              aria-label={compact ? `${choice.label} theme` : undefined}
              title={choice.description}
              className={cn(
                'inline-flex items-center gap-1.5 rounded px-2 py-1 text-xs font-medium transition-colors',
                pressed ? 'bg-white text-zinc-900 shadow-sm ring-1 ring-zinc-300' : 'text-zinc-600 hover:bg-white/60 hover:text-zinc-900',
              )}
            >
              <ThemeIcon theme={choice.value} />
              {compact ? null : choice.label}
            </ThemeButton>
          );
        })}
      </div>
    </form>
  );
}
