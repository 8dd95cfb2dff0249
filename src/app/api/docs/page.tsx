import type { Metadata } from 'next';
import { API_BASE_PATH, buildOpenApiDocument, TOKEN_COMMAND } from '@/api/openapi/document';
import { requireDocumentationReader } from '@/server/documentation';
import { getEngine } from '@/server/engine';
import { ApiDocsView } from '@/ui/api-docs/api-docs-view';

export const metadata: Metadata = { title: 'API' };

/**
 * The API reference for people: what /api/v1/openapi.json shows, for the roles of
 * `screens.documentation` (it names every role's transitions and every field). API clients
 * read the JSON document itself. (A page, not a route handler: this folder has no route.ts.)
 */
export default async function ApiDocsPage() {
  await requireDocumentationReader('/api/docs');
  const { model } = await getEngine();
  return <ApiDocsView document={buildOpenApiDocument(model)} documentUrl={`${API_BASE_PATH}/openapi.json`} tokenCommand={TOKEN_COMMAND} />;
}
