'use server';

import type { ReactNode } from 'react';
import { MarkdownText } from '@/ui/markdown';
import { requireViewer } from '../viewer';

/** Longer than any field a form would send in one go; a preview past it is refused, not cut. */
const MAX_PREVIEW_CHARACTERS = 200_000;

/**
 * The Preview tab of a Markdown field: the text rendered on the server by the very renderer the
 * pages use (no raw HTML, no unsafe links), so what the preview shows is what will be shown.
 * Signed-in users only, and visitors where the spec lets them write (a contact form): it reads
 * nothing, but it is a public endpoint like every action.
 */
export async function previewMarkdown(source: unknown): Promise<ReactNode> {
  await requireViewer();
  if (typeof source !== 'string' || source.trim() === '') return <p className="text-sm text-zinc-500">Nothing to preview.</p>;
  if (source.length > MAX_PREVIEW_CHARACTERS) {
    return <p className="text-sm text-zinc-600">Too long to preview ({MAX_PREVIEW_CHARACTERS.toLocaleString('en')} characters at most).</p>;
  }
  return <MarkdownText>{source}</MarkdownText>;
}
