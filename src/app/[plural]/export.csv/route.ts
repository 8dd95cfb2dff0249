import { exportListResponse } from '@/server/csv/export-response';

/** The list at /<plural> (or a custom route's, `list=`) as a CSV download: src/server/csv/export-response.ts. */
export async function GET(request: Request, { params }: { params: Promise<{ plural: string }> }): Promise<Response> {
  return exportListResponse(request, (await params).plural);
}
