import type { EntityModel } from '@/engine/spec/model';
import { ButtonLink } from '../button';
import { Card } from '../card';
import { PageHeader } from '../page-header';
import { inSentence } from '@/engine/spec/naming';

/**
 * What someone sees after sending a record they may not read back (a visitor's contact form):
 * that it arrived, and a way to send another. Nothing of what they sent is shown again.
 */
export function SentConfirmation({ entity }: { entity: EntityModel }) {
  return (
    <div className="max-w-3xl">
      <PageHeader title={entity.label} />
      <Card className="p-6">
        <p role="status" className="text-base font-medium text-zinc-900">
          Thank you, sent.
        </p>
        <p className="mt-2 text-sm text-zinc-600">Your {inSentence(entity.label)} has reached the people who read them.</p>
        <div className="mt-4 flex gap-2">
          <ButtonLink href={`/${entity.plural}/new`}>Send another</ButtonLink>
          <ButtonLink href="/" variant="ghost">
            Home
          </ButtonLink>
        </div>
      </Card>
    </div>
  );
}
