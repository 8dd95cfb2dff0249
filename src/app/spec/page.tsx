import type { Metadata } from 'next';
import { describeDocument } from '@/engine/spec/describe';
import { requireDocumentationReader } from '@/server/documentation';
import { getEngine } from '@/server/engine';
import { SpecDocumentView } from '@/ui/spec-document';

export const metadata: Metadata = { title: 'Spec' };

export default async function SpecPage() {
  await requireDocumentationReader('/spec');
  const { model } = await getEngine();
  return <SpecDocumentView document={describeDocument(model)} />;
}
