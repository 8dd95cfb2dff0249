import type { Actor } from '@/engine/ground/actor';
import type { AppModel } from '@/engine/spec/model';
import { seeAllTarget } from '@/engine/spec/screens/home';
import { type ListWidgetModel } from '@/engine/spec/screens/home-model';
import { filteredListHref } from './list-href';
import { knownEntity } from '../known-names';

/** The address of the page showing all of a list widget's records for this viewer, or null when none does. */
export function seeAllHref(model: AppModel, widget: ListWidgetModel, actor: Actor): string | null {
  const target = seeAllTarget(model, widget);
  if (!target) return null;
  if (target.kind === 'route') return target.path;
  const filters = Object.fromEntries(
    Object.entries(target.filters).map(([field, value]) => [field, typeof value === 'string' ? value : String(actor.userId)]),
  );
  return filteredListHref(knownEntity(model, widget.entity), filters);
}
