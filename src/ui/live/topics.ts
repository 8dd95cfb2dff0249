import { ownValue } from '@/engine/spec/own-names';

/**
 * What the open page shows, as its parts declare it (<LiveTopics>, <LiveEditNotice>), so that the
 * live connection knows whether a change concerns it. A module-level registry: the connection is
 * mounted once in the shell, the parts come and go with the pages.
 */

/** Records of an entity the page shows: some ids, or any of them (a list, a count, a related section). */
export interface LiveTopic {
  readonly entity: string;
  readonly ids?: readonly number[];
}

/** Per entity, the changed records the viewer may read: ids, or null for "some". */
export type LiveChanges = Readonly<Record<string, readonly number[] | null>>;

interface Interest {
  readonly topics: readonly LiveTopic[];
  /** Called instead of refreshing the page (an edit form must not be re-rendered under the user). */
  readonly onChange?: () => void;
}

const interests = new Set<Interest>();

/** Declares what a part of the page shows; returns the function that withdraws it. */
export function declareInterest(interest: Interest): () => void {
  interests.add(interest);
  return () => {
    interests.delete(interest);
  };
}

export function concerns(topic: LiveTopic, changes: LiveChanges): boolean {
  const ids = ownValue(changes, topic.entity);
  if (ids === undefined) return false;
  return ids === null || topic.ids === undefined || topic.ids.some((id) => ids.includes(id));
}

/** Tells the parts the changes concern; true when the page should be refreshed. */
export function dispatchChanges(changes: LiveChanges): boolean {
  let refresh = false;
  for (const interest of interests) {
    if (!interest.topics.some((topic) => concerns(topic, changes))) continue;
    if (interest.onChange) interest.onChange();
    else refresh = true;
  }
  return refresh;
}

/** Whether the page shows anything that a refresh would bring up to date (after missed changes). */
export function refreshable(): boolean {
  return [...interests].some((interest) => !interest.onChange);
}
