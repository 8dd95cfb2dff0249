'use server';

import { z } from 'zod';
import { getEngine } from '../engine';
import { PALETTE_QUERY_MAX } from '../palette-query';
import type { PaletteGroup } from '@/ui/palette/palette-groups';
import { searchPalette } from '../palette-search';
import { currentActor } from '../session';

const Query = z.string().max(PALETTE_QUERY_MAX * 4);

/**
 * The command palette's record search: what the signed-in user may see of the records matching
 * what they typed (src/server/palette-search.ts, through ops). Signed out, or not a string: none.
 */
export async function searchPaletteRecords(query: unknown): Promise<PaletteGroup[]> {
  const parsed = Query.safeParse(query);
  if (!parsed.success) return [];
  const actor = await currentActor();
  if (!actor) return [];
  return searchPalette(await getEngine(), actor, parsed.data);
}
