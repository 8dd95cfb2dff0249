import { ENGINE_STORE } from '@/engine/assemble-engine';
import type { Engine } from '@/engine/engine';
import type { Store } from '@/engine/store/types';

/** An engine with its store beside it, for tests that set up or inspect rows directly. */
export type TestEngine = Engine & { readonly store: Store };

/** The engine of a test with its store (any engine assembled by assembleEngine, openEngine's included). */
export function withStore(engine: Engine): TestEngine {
  const store = (engine as unknown as Record<symbol, Store | undefined>)[ENGINE_STORE];
  if (!store) throw new Error('This engine was not assembled by assembleEngine.');
  return Object.assign(engine, { store });
}
