import { asNinefoldError } from '@/engine/errors/ninefold-error';
import { getEngine } from '@/server/engine';
import { confirmPage, donePage, invalidPage } from '@/server/unsubscribe-page';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ token: string }> };

async function answer(run: (title: string) => Promise<Response>): Promise<Response> {
  const engine = await getEngine();
  const title = engine.model.title;
  try {
    return await run(title);
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known) throw error;
    return invalidPage(title, known.status, known.message);
  }
}

/** The link followed: a page that asks before anything is turned off. */
export function GET(_request: Request, { params }: Params): Promise<Response> {
  return answer(async (title) => {
    const target = await (await getEngine()).notifications.unsubscribeTarget((await params).token);
    return confirmPage(title, target.label);
  });
}

/** The confirm page's form, or a mail client's one-click POST (RFC 8058: body `List-Unsubscribe=One-Click`). */
export function POST(request: Request, { params }: Params): Promise<Response> {
  return answer(async (title) => {
    const target = await (await getEngine()).notifications.unsubscribe((await params).token);
    const body = await request.text().catch(() => '');
    if (new URLSearchParams(body).get('List-Unsubscribe') === 'One-Click') {
      return new Response('Unsubscribed.\n', { headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
    return donePage(title, target.label);
  });
}
