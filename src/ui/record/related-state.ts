import type { RelatedModel } from '@/engine/spec/screens/detail-model';

/**
 * Names a related section of a detail page shares between the page, its server action and its
 * client form: what the add-in-place form posts besides its fields, and the section's anchor.
 */

/** The transition chosen beside the reply box ("Reply and wait for customer"); empty for a plain reply. */
export const REPLY_WITH_INPUT = '__replyWith';

/**
 * Present when the form was posted by script: the action then answers with a fresh form and
 * refreshes the page in place (no reload, scroll kept) instead of redirecting, as a plain post needs.
 */
export const SCRIPTED_INPUT = '__scripted';

/** The element id of a related section on a detail page, which links and redirects come back to. */
export function sectionAnchor(section: Pick<RelatedModel, 'key'>): string {
  return `related-${section.key.replace(/\./g, '-')}`;
}
