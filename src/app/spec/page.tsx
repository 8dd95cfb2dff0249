import type { Metadata } from 'next';
import { describeDocument } from '@/engine/spec/describe';
import { getEngine } from '@/server/engine';
import { requireActor } from '@/server/session';
import { SpecDocumentView } from '@/ui/spec-document';

export const metadata: Metadata = { title: 'Spec' };

export default async function SpecPage() {
  await requireActor('/spec');
  const { model } = await getEngine();
  return <SpecDocumentView document={describeDocument(model)} />;
}
