'use client';

import { useEffect } from 'react';
import { declareInterest, type LiveTopic } from './topics';

/**
 * Declares which records this page shows, so that a change to one of them (that the viewer may
 * read) refreshes it in place. Renders nothing.
 */
export function LiveTopics({ topics }: { topics: readonly LiveTopic[] }) {
  // The topics as a value: a re-render with equal topics keeps the same declaration.
  const key = JSON.stringify(topics);
  useEffect(() => declareInterest({ topics: JSON.parse(key) as LiveTopic[] }), [key]);
  return null;
}
