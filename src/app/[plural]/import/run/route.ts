import { importStreamResponse } from '@/server/csv/import-stream';

/** The import page's form, sent by its script: progress, then the outcome, as NDJSON (src/server/csv/import-stream.ts). */
export async function POST(request: Request, { params }: { params: Promise<{ plural: string }> }): Promise<Response> {
  return importStreamResponse(request, (await params).plural);
}
