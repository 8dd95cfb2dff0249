import { importTemplateResponse } from '@/server/csv/import-template';

/** An empty file with the header row the import page takes from the signed-in user. */
export async function GET(request: Request, { params }: { params: Promise<{ plural: string }> }): Promise<Response> {
  return importTemplateResponse(request, (await params).plural);
}
