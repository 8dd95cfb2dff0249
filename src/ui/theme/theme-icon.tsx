import type { Theme } from '@/engine/preferences/preferences';

/** A monitor (follow the system), a sun (light) or a moon (dark); decorative: the button names itself. */
export function ThemeIcon({ theme }: { theme: Theme }) {
  const common = {
    'aria-hidden': true,
    viewBox: '0 0 20 20',
    className: 'size-4',
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 1.6,
    strokeLinecap: 'round',
    strokeLinejoin: 'round',
  } as const;
  if (theme === 'light') {
    return (
      <svg {...common}>
        <circle cx="10" cy="10" r="3.5" />
        <path d="M10 1.5v2M10 16.5v2M1.5 10h2M16.5 10h2M4 4l1.4 1.4M14.6 14.6 16 16M4 16l1.4-1.4M14.6 5.4 16 4" />
      </svg>
    );
  }
  if (theme === 'dark') {
    return (
      <svg {...common}>
        <path d="M16.5 12.3A7 7 0 0 1 7.7 3.5a7 7 0 1 0 8.8 8.8Z" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <rect x="2" y="3" width="16" height="11" rx="1.5" />
      <path d="M7 17.5h6M10 14v3.5" />
    </svg>
  );
}
