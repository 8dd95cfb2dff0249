'use server';

import { z } from 'zod';
import type { ChoiceOption } from '@/ui/forms/state';
import { getEngine } from '../engine';
import { searchFieldChoices } from '../field-choices';
import { currentActor } from '../session';
import { currentVisitor } from '../viewer';

const Name = z.string().max(100);
const Query = z.object({
  q: z.string().max(800),
  within: z.number().int().positive().safe().nullable(),
});

/**
 * A picker's search (src/ui/forms/choice-picker.tsx): the options of `entity`'s field `field`
 * matching what the viewer typed, through ops (src/server/field-choices.ts). Arguments of
 * another shape, or no viewer: none.
 */
export async function searchChoices(entity: string, field: string, query: unknown): Promise<ChoiceOption[]> {
  const names = z.tuple([Name, Name]).safeParse([entity, field]);
  const parsed = Query.safeParse(query);
  if (!names.success || !parsed.success) return [];
  const actor = (await currentActor()) ?? (await currentVisitor());
  if (!actor) return [];
  return searchFieldChoices(await getEngine(), actor, names.data[0], names.data[1], parsed.data);
}
