import { NinefoldError } from '@/engine/errors/ninefold-error';
import { json } from './json';
import { actorOf, type Route } from './routes';

/** GET /inbox (the caller's notifications, newest first), POST /inbox/{id}/read and /inbox/read-all. */
export const inboxRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: ['inbox'],
    access: 'signedIn',
    originCheck: true,
    run: async (call) => {
      const { searchParams } = call.url;
      const limit = searchParams.get('limit');
      const page = await call.engine.notifications.inbox(actorOf(call), {
        cursor: searchParams.get('cursor') ?? undefined,
        limit: limit === null ? undefined : Number(limit),
        unread: searchParams.get('unread') === 'true',
      });
      const unread = await call.engine.notifications.unread(actorOf(call));
      return json({
        unread,
        items: page.items.map((item) => ({ ...item, createdAt: item.createdAt.toISOString() })),
        nextCursor: page.nextCursor,
      });
    },
  },
  {
    method: 'POST',
    path: ['inbox', 'read-all'],
    access: 'signedIn',
    originCheck: true,
    run: async (call) => json({ marked: await call.engine.notifications.markAllRead(actorOf(call)) }),
  },
  {
    method: 'POST',
    path: ['inbox', { param: 'id' }, 'read'],
    access: 'signedIn',
    originCheck: true,
    run: async (call) => {
      const id = /^\d{1,15}$/.test(call.params.id ?? '') ? Number(call.params.id) : NaN;
      if (Number.isNaN(id)) throw new NinefoldError('NOT_FOUND', 'This notification does not exist, or it is not yours.');
      await call.engine.notifications.markRead(actorOf(call), id);
      return json({ read: true });
    },
  },
];
