import type { ReactNode } from 'react';
import { PhoneFold } from '../phone-fold';

/**
 * The page of a record with a thread (a ticket): the opening message and the conversation with
 * its reply box lead the main column; what one can do (the workflow), who the conversation is
 * with and the record's facts stand beside it on wide screens. On a phone the columns dissolve in
 * reading order: the conversation, the workflow, the facts folded away, who it is with, then the rest.
 */
export function ConversationLayout({
  opening,
  threads,
  workflow,
  facts,
  counterpart,
  rest,
  system,
}: {
  opening: ReactNode;
  threads: ReactNode;
  workflow: ReactNode;
  facts: ReactNode;
  counterpart: ReactNode;
  rest: ReactNode;
  system: ReactNode;
}) {
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
      <div className="min-w-0 max-lg:contents lg:col-span-2 lg:space-y-6">
        {opening ? <div className="max-lg:order-1">{opening}</div> : null}
        <div className="space-y-6 max-lg:order-2">{threads}</div>
        <div className="space-y-6 max-lg:order-6">{rest}</div>
      </div>
      {/* (Spaced from `lg` only: dissolved, the grid's gap spaces them.) */}
      <div className="max-lg:contents lg:col-start-3 lg:row-start-1 lg:space-y-6">
        {workflow ? <div className="max-lg:order-3">{workflow}</div> : null}
        {counterpart ? <div className="max-lg:order-5">{counterpart}</div> : null}
        {facts ? (
          <PhoneFold label="Details" className="max-lg:order-4">
            {facts}
          </PhoneFold>
        ) : null}
        <div className="max-lg:order-7">{system}</div>
      </div>
    </div>
  );
}
