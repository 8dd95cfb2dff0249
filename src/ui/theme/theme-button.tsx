'use client';

import type { ComponentProps } from 'react';
import type { Theme } from '@/engine/preferences/preferences';

/**
 * A submit button of the theme form that, with JavaScript, repaints the page in the chosen theme
 * at the click instead of after the server's answer (which then renders the same theme). Without
 * JavaScript it is a plain submit button and the server's answer repaints.
 */
export function ThemeButton({ value, ...props }: Omit<ComponentProps<'button'>, 'type' | 'name' | 'value' | 'onClick'> & { value: Theme }) {
  return <button {...props} type="submit" name="theme" value={value} onClick={() => (document.documentElement.dataset.theme = value)} />;
}
