import type { Issues, Rec, Symbols } from './context';

/** Checks `screens.home`. */
export function checkHome(_screens: Rec, _symbols: Symbols, _issues: Issues): void {}
