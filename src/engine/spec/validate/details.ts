import type { Issues, Rec, Symbols } from './context';

/** Checks `screens.details`. */
export function checkDetails(_screens: Rec, _symbols: Symbols, _issues: Issues): void {}
