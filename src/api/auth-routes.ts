import { z } from 'zod';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import { readJsonObject } from './body';
import { clearedSessionCookie, isHttps, sessionCookie } from './credentials';
import { json } from './json';
import { actorOf, type Route } from './routes';
import type { WireSignIn, WireSignOut, WireUser } from './wire';

/** /auth/sign-in, /auth/sign-out and /auth/me. */

const SignIn = z.strictObject({ email: z.string().max(320), password: z.string().max(1024) });

export const authRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: ['auth', 'sign-in'],
    access: 'public',
    originCheck: false,
    run: async ({ engine, request, limits, context }) => {
      const parsed = SignIn.safeParse(await readJsonObject(request, limits.maxBodyBytes));
      if (!parsed.success) {
        throw new NinefoldError('VALIDATION_FAILED', 'Send {"email": "...", "password": "..."}.', {
          fieldErrors: parsed.error.issues.map((issue) => ({
            field: String(issue.path[0] ?? (issue.code === 'unrecognized_keys' ? issue.keys[0] : '')),
            code: issue.code === 'unrecognized_keys' ? 'unknown_field' : issue.code,
            message: issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}.` : issue.message,
          })),
        });
      }
      // Throttled per account and per address by the engine (429 with Retry-After beyond), like the sign-in page.
      const { user, session } = await engine.identity.signIn(parsed.data.email, parsed.data.password, { ip: context.clientIp });
      const body: WireSignIn = { user: { id: user.id, email: user.email, name: user.name, roles: [...user.roles] } };
      return json(body, { headers: { 'set-cookie': sessionCookie(session.token, session.expiresAt, isHttps(request)) } });
    },
  },
  {
    method: 'POST',
    path: ['auth', 'sign-out'],
    access: 'optional',
    originCheck: true,
    run: async ({ engine, request, credentials }) => {
      // Ends the server session, not just the cookie: a copied cookie stops working too.
      if (credentials.kind === 'cookie') await engine.identity.endSession(credentials.token);
      const body: WireSignOut = { signedOut: true };
      return json(body, { headers: { 'set-cookie': clearedSessionCookie(isHttps(request)) } });
    },
  },
  {
    method: 'GET',
    path: ['auth', 'me'],
    access: 'signedIn',
    originCheck: true,
    run: async (call) => {
      const actor = actorOf(call);
      const body: WireUser = { id: actor.userId, email: actor.email, name: actor.name, roles: [...actor.roles] };
      return json(body);
    },
  },
];
