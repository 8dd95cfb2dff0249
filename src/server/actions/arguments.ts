/**
 * What each server action takes, as React's client sends it, so that `npm start`'s server
 * (scripts/server.mjs, src/api/action-body.mjs) refuses a call whose arguments are of another
 * shape with 422 before Next.js runs the action (which would throw on them: a 500). The list is
 * checked against the actions' own parameter types in arguments.test.ts (which the type check
 * compiles; this module does not import the actions, which import the engine that registers it):
 * an action added, removed or changed without its entry here does not compile. A form may add
 * its FormData after the declared arguments (React passes it to the action of a form; an action
 * that needs none declares none).
 *
 * - `text`, `id`: a string or number the page bound to the action (an entity, a record's id);
 * - `state`: the form's previous state (useActionState), a plain object;
 * - `form`: the form's fields (FormData);
 * - `value`: anything plain, which the action checks itself (a search, a Markdown preview).
 */
export type ActionArgument = 'text' | 'id' | 'state' | 'form' | 'value';

/** By the action's exported name (the build's manifest names each action id's). */
export const ACTION_ARGUMENTS = {
  updateNameAction: ['state', 'form'],
  changePasswordAction: ['state', 'form'],
  createTokenAction: ['state', 'form'],
  revokeTokenAction: ['state', 'form'],
  signInAction: ['state', 'form'],
  signOutAction: [],
  setupAction: ['state', 'form'],
  takeBulkAction: ['text', 'state', 'form'],
  moveBoardCard: ['text', 'state', 'form'],
  acceptInviteAction: ['state', 'form'],
  previewMarkdown: ['value'],
  searchPaletteRecords: ['value'],
  searchChoices: ['text', 'text', 'value'],
  createRecord: ['text', 'state', 'form'],
  updateRecord: ['text', 'id', 'state', 'form'],
  updateField: ['text', 'id', 'state', 'form'],
  deleteRecord: ['text', 'id', 'state', 'form'],
  addRelated: ['text', 'id', 'text', 'state', 'form'],
  chooseThemeAction: ['form'],
  chooseTimeZoneAction: ['form'],
  takeTransition: ['text', 'id', 'text', 'state', 'form'],
  inviteAction: ['state', 'form'],
  setRolesAction: ['state', 'form'],
  setUserFieldsAction: ['state', 'form'],
  disableUserAction: ['state', 'form'],
  enableUserAction: ['state', 'form'],
  revokeInviteAction: ['state', 'form'],
  sendWebhookAgainAction: ['state', 'form'],
  markInboxReadAction: ['form'],
  markAllInboxReadAction: [],
  saveNotifyPreferencesAction: ['form'],
  setWatchAction: ['text', 'id', 'text'],
  saveViewAction: ['state', 'form'],
  updateViewAction: ['state', 'form'],
  renameViewAction: ['state', 'form'],
  shareViewAction: ['state', 'form'],
  deleteViewAction: ['state', 'form'],
} as const satisfies Readonly<Record<string, readonly ActionArgument[]>>;

/**
 * The actions that write a record's files posted with its form (src/server/form-files.ts): only
 * their posts may be larger than a form's values, up to the spec's file allowance; any other
 * action's larger post is refused with 413 (src/api/action-body.mjs). An action that comes to
 * write files joins this list.
 */
export const FILE_ACTIONS = ['createRecord', 'updateRecord', 'addRelated'] as const satisfies readonly (keyof typeof ACTION_ARGUMENTS)[];

/** Where scripts/server.mjs looks for the lists (the app is bundled; the server script is not). */
export const ACTION_ARGUMENTS_KEY = Symbol.for('ninefold.actionArguments');
const FILE_ACTIONS_KEY = Symbol.for('ninefold.fileActions');

export function registerActionArguments(): void {
  (globalThis as Record<symbol, unknown>)[ACTION_ARGUMENTS_KEY] = ACTION_ARGUMENTS;
  (globalThis as Record<symbol, unknown>)[FILE_ACTIONS_KEY] = FILE_ACTIONS;
}
