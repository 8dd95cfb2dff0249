import type * as account from './account';
import type * as auth from './auth';
import type * as bulkTransitions from './bulk-transitions';
import type * as invite from './invite';
import type * as markdownPreview from './markdown-preview';
import type * as palette from './palette';
import type * as records from './records';
import type * as related from './related';
import type * as theme from './theme';
import type * as transitions from './transitions';
import type * as users from './users';
import type * as views from './views';

/**
 * What each server action takes, as React's client sends it, so that `npm start`'s server
 * (scripts/server.mjs, src/api/action-body.mjs) refuses a call whose arguments are of another
 * shape with 422 before Next.js runs the action (which would throw on them: a 500). The list is
 * checked against the actions' own parameter types: an action added, removed or changed without
 * its entry here does not compile. A form may add its FormData after the declared arguments (React
 * passes it to the action of a form; an action that needs none declares none).
 *
 * - `text`, `id`: a string or number the page bound to the action (an entity, a record's id);
 * - `state`: the form's previous state (useActionState), a plain object;
 * - `form`: the form's fields (FormData);
 * - `value`: anything plain, which the action checks itself (a search, a Markdown preview).
 */
export type ActionArgument = 'text' | 'id' | 'state' | 'form' | 'value';

type ArgumentOf<T> = unknown extends T
  ? 'value'
  : T extends FormData
    ? 'form'
    : T extends string
      ? 'text'
      : T extends number
        ? 'id'
        : T extends object
          ? 'state'
          : never;
type ArgumentsOf<F> = F extends (...args: infer P) => unknown ? { readonly [I in keyof P]: ArgumentOf<P[I]> } : never;
type Actions = typeof account &
  typeof auth &
  typeof bulkTransitions &
  typeof invite &
  typeof markdownPreview &
  typeof palette &
  typeof records &
  typeof related &
  typeof theme &
  typeof transitions &
  typeof users &
  typeof views;

/** By the action's exported name (the build's manifest names each action id's). */
export const ACTION_ARGUMENTS = {
  updateNameAction: ['state', 'form'],
  changePasswordAction: ['state', 'form'],
  createTokenAction: ['state', 'form'],
  revokeTokenAction: ['state', 'form'],
  signInAction: ['state', 'form'],
  signOutAction: [],
  setupAction: ['state', 'form'],
  takeBulkTransition: ['text', 'state', 'form'],
  acceptInviteAction: ['state', 'form'],
  previewMarkdown: ['value'],
  searchPaletteRecords: ['value'],
  createRecord: ['text', 'state', 'form'],
  updateRecord: ['text', 'id', 'state', 'form'],
  deleteRecord: ['text', 'id', 'state', 'form'],
  addRelated: ['text', 'id', 'text', 'state', 'form'],
  chooseThemeAction: ['form'],
  takeTransition: ['text', 'id', 'text', 'state', 'form'],
  inviteAction: ['state', 'form'],
  setRolesAction: ['state', 'form'],
  setUserFieldsAction: ['state', 'form'],
  disableUserAction: ['state', 'form'],
  enableUserAction: ['state', 'form'],
  revokeInviteAction: ['state', 'form'],
  saveViewAction: ['state', 'form'],
  updateViewAction: ['state', 'form'],
  renameViewAction: ['state', 'form'],
  shareViewAction: ['state', 'form'],
  deleteViewAction: ['state', 'form'],
} as const satisfies { readonly [N in keyof Actions]: ArgumentsOf<Actions[N]> };

/** Where scripts/server.mjs looks for the list (the app is bundled; the server script is not). */
export const ACTION_ARGUMENTS_KEY = Symbol.for('ninefold.actionArguments');

export function registerActionArguments(): void {
  (globalThis as Record<symbol, unknown>)[ACTION_ARGUMENTS_KEY] = ACTION_ARGUMENTS;
}
