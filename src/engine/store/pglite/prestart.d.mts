/** Types of ./prestart.mjs (plain JavaScript, imported by path from scripts/server.mjs). */
export declare const PRESTARTED: unique symbol;

export declare function prestartEmbeddedDatabase(options: {
  /** The project root (NINEFOLD_ROOT): where the worker script and a relative DATA_DIR are found. */
  readonly root: string;
  /** The data directory; default DATA_DIR, then .data, as the engine's settings read them. */
  readonly dataDir?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}): boolean;
