import type { Issues, Rec, Symbols } from './context';

/** Checks `screens.routes`. */
export function checkRoutes(_screens: Rec, _symbols: Symbols, _issues: Issues): void {}
