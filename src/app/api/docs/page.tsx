import type { Metadata } from 'next';
import { API_BASE_PATH, buildOpenApiDocument, TOKEN_COMMAND } from '@/api/openapi/document';
import { getEngine } from '@/server/engine';
import { currentActor } from '@/server/session';
import { ApiDocsView } from '@/ui/api-docs/api-docs-view';

export const metadata: Metadata = { title: 'API' };

/**
 * The API reference for people, public like /api/v1/openapi.json: it shows what that document
 * shows and nothing else. (A page, not a route handler: this folder has no route.ts.)
 */
export default async function ApiDocsPage() {
  const { model } = await getEngine();
  const view = <ApiDocsView document={buildOpenApiDocument(model)} documentUrl={`${API_BASE_PATH}/openapi.json`} tokenCommand={TOKEN_COMMAND} />;
  // Signed in, the app shell frames the page; a visitor gets the plain shell, so the page keeps its own margins.
  if (await currentActor()) return view;
  return <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6">{view}</div>;
}
