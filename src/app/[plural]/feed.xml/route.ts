import { readerFeedResponse } from '@/server/reader-feed';

/** The Atom feed of a presented entity (`screens.presentation.<entity>.feed`): src/server/reader-feed.ts. */
export async function GET(request: Request, { params }: { params: Promise<{ plural: string }> }): Promise<Response> {
  return readerFeedResponse(request, (await params).plural);
}
