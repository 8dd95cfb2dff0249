/**
 * The REST door of the permission matrix (testing/access-matrix/run.ts): every cell asked
 * over /api/v1, each signed-in persona with its own API token and client address (so that no rate
 * limit is shared), a visitor with no credentials at all. Every answer is checked against the
 * OpenAPI document by the client.
 */
import { outcomeOfCode, shown, type Answer, type MatrixDoor, type MatrixUser, type Reply } from '@testing/access-matrix/run';
import type { Engine } from '@/engine/engine';
import type { RecordValue } from '@/engine/ground/record-value';
import type { EntityModel } from '@/engine/spec/model';
import type { ApiAnswer, ApiClient } from '@testing/api/api';
import { fieldToWire } from '@/api/wire';
import { declared } from '@/engine/ops/declared';

/** A JSON body as a client sends it: values as the wire writes them (dates as ISO strings). */
function wireInput(entity: EntityModel, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).map(([name, value]) => {
      const field = entity.fieldsByName[name];
      return [name, field ? fieldToWire(field, value as RecordValue) : value];
    }),
  );
}

function outcomeOf(user: MatrixUser, answer: ApiAnswer): Answer {
  if (answer.status >= 200 && answer.status < 300) return 'allowed';
  const code = typeof answer.body?.code === 'string' ? answer.body.code : `status ${answer.status}`;
  // Without credentials, an operation the public is not granted is a sign-in matter: the visitor's "forbidden".
  if (user.persona.visitor && code === 'UNAUTHENTICATED') return 'forbidden';
  const fieldCodes: string[] = Array.isArray(answer.body?.errors) ? answer.body.errors.map((e: { code: string }) => e.code) : [];
  return outcomeOfCode(code, fieldCodes);
}

/** A record the API answered with, or the refusal. */
function replyOf(user: MatrixUser, answer: ApiAnswer): Reply {
  return answer.status >= 200 && answer.status < 300 && answer.body !== null ? shown(answer.body) : outcomeOf(user, answer);
}

export function restDoor(engine: Engine, api: ApiClient, tokens: ReadonlyMap<number, string>): MatrixDoor {
  const entity = (name: string) => declared(engine.model.entitiesByName, name, 'entity');
  const as = (user: MatrixUser) =>
    user.persona.visitor
      ? { ip: '198.51.100.250' }
      : { token: tokens.get(user.actor.userId)!, ip: `198.51.100.${user.actor.userId % 250}` };
  const ifMatch = (version: number) => ({ 'if-match': `"${version}"` });
  return {
    name: 'REST',
    async list(user, name) {
      const rows: { id: number; keys: readonly string[] }[] = [];
      let cursor: string | null = null;
      do {
        const answer = await api.call(
          'GET',
          `/${entity(name).plural}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          as(user),
        );
        if (answer.status !== 200) return outcomeOf(user, answer);
        rows.push(...answer.body.items.map((item: { id: number }) => ({ id: item.id, ...shown(item) })));
        cursor = answer.body.nextCursor;
      } while (cursor);
      return rows;
    },
    read: async (user, name, id) => replyOf(user, await api.call('GET', `/${entity(name).plural}/${id}`, as(user))),
    create: async (user, name, input) =>
      replyOf(user, await api.call('POST', `/${entity(name).plural}`, { ...as(user), body: wireInput(entity(name), input) })),
    update: async (user, name, id, input, version) =>
      replyOf(
        user,
        await api.call('PATCH', `/${entity(name).plural}/${id}`, {
          ...as(user),
          body: wireInput(entity(name), input),
          headers: ifMatch(version),
        }),
      ),
    delete: async (user, name, id, version) =>
      replyOf(user, await api.call('DELETE', `/${entity(name).plural}/${id}`, { ...as(user), headers: ifMatch(version) })),
    transition: async (user, name, id, transition, version) =>
      replyOf(
        user,
        await api.call('POST', `/${entity(name).plural}/${id}/transitions/${transition}`, {
          ...as(user),
          body: {},
          headers: ifMatch(version),
        }),
      ),
  };
}
