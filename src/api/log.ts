/** The engine's structured logger: one JSON line per event on stderr. */
export { logLine } from '@/engine/log';
