'use client';

import { createContext, useContext, type ReactNode } from 'react';

/** Renders Markdown on the server for the Preview tab (a server action the root layout passes down). */
export type PreviewMarkdown = (source: string) => Promise<ReactNode>;

const PreviewContext = createContext<PreviewMarkdown | null>(null);

/** Gives every Markdown field below it the server's preview; the UI itself imports no server code. */
export function MarkdownPreviewProvider({ preview, children }: { preview: PreviewMarkdown; children: ReactNode }) {
  return <PreviewContext value={preview}>{children}</PreviewContext>;
}

/** The preview action, or null outside a provider (the field is then the plain textarea, as without JavaScript). */
export function usePreviewMarkdown(): PreviewMarkdown | null {
  return useContext(PreviewContext);
}
