import 'server-only';
import { redirect } from 'next/navigation';
import { visitorsWelcome, writtenOnlyByCalls } from '@/engine/access/policy';
import { isVisitor, visitorActor } from '@/engine/access/visitor';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import { getEngine } from './engine';
import { newRecordLabel } from '@/engine/spec/new-record-label';
import { navigationFor, type NavigationEntry } from './navigation';
import { safeReturnPath } from './request-return-path';
import { currentActor, requireActor } from './session';

/*
 * Pages and forms that visitors who are not signed in may reach (the spec grants the built-in
 * `public` role something): they act as the visitor, and ops decides what that visitor sees.
 * Whatever ops refuses them sends them to sign in, exactly as a page behind a sign-in does.
 */

/**
 * The signed-in actor; else the visitor, when the spec lets visitors in at all (and the
 * application has been set up); else the sign-in (or set-up) page, as `requireActor`.
 */
export async function requireViewer(returnTo?: string): Promise<Actor> {
  const actor = await currentActor();
  if (actor) return actor;
  const engine = await getEngine();
  if (visitorsWelcome(engine.model) && (await engine.identity.hasUsers())) return visitorActor();
  return requireActor(returnTo);
}

/** The visitor of a public page, or null for a signed-in actor (for what only visitors get). */
export async function currentVisitor(): Promise<Actor | null> {
  if (await currentActor()) return null;
  const engine = await getEngine();
  return visitorsWelcome(engine.model) ? visitorActor() : null;
}

/** Sends a visitor whom ops refused to sign in (and back after); for anyone else it does nothing. */
export function signInIfVisitor(actor: Actor, returnTo: string): void {
  if (!isVisitor(actor)) return;
  const back = safeReturnPath(returnTo);
  redirect(back !== '/' ? `/sign-in?next=${encodeURIComponent(back)}` : '/sign-in');
}

/**
 * Where a visitor may go, for the public shell and the home page: what they may list (as the
 * navigation says, through ops), then the forms of what they may create without listing it (a
 * contact form), under the spec's label for it (`labels["enquiry.new"]`).
 */
export async function visitorPlaces(engine: Engine, visitor: Actor): Promise<NavigationEntry[]> {
  const forms = engine.model.navigation
    .filter((entity) => {
      const access = engine.ops.access(visitor, entity.name);
      return access.actions.create && !access.actions.list && !writtenOnlyByCalls(entity);
    })
    .map((entity) => ({ href: `/${entity.plural}/new`, label: newRecordLabel(engine.model, entity) }));
  return [...(await navigationFor(engine, visitor)), ...forms];
}
