import { z } from 'zod';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import { readJsonBody } from '@/server/request';
import { json, problemResponse } from '@/server/problem';
import { getEngine } from '@/server/engine';
import { setSessionCookie } from '@/server/session';

const Credentials = z.object({ email: z.string().max(320), password: z.string().max(1024) });

export async function POST(request: Request): Promise<Response> {
  try {
    const parsed = Credentials.safeParse(await readJsonBody(request));
    if (!parsed.success) throw new NinefoldError('VALIDATION_FAILED', 'Send {"email": "...", "password": "..."}.');
    const engine = await getEngine();
    const user = await engine.identity.verifyCredentials(parsed.data.email, parsed.data.password);
    if (!user) throw new NinefoldError('UNAUTHENTICATED', 'Email or password is incorrect.');
    const session = await engine.identity.createSession(user.id);
    await setSessionCookie(session.token, session.expiresAt);
    return json({ user: { id: user.id, email: user.email, name: user.name, roles: user.roles } });
  } catch (error) {
    return problemResponse(error);
  }
}
