/**
 * Names the add-in-place form of a related section posts besides its fields. Plain data, shared
 * by the server action and the client form.
 */

/** The transition chosen beside the reply box ("Reply and wait for customer"); empty for a plain reply. */
export const REPLY_WITH_INPUT = '__replyWith';

/**
 * Present when the form was posted by script: the action then answers with a fresh form and
 * refreshes the page in place (no reload, scroll kept) instead of redirecting, as a plain post needs.
 */
export const SCRIPTED_INPUT = '__scripted';
