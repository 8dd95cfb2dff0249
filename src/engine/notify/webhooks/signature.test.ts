import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { secretKey, signWebhook } from './signature';

// The receiver's side is the `standardwebhooks` package: an implementation that is not ours.

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ type: 'ticket.resolve', timestamp: '2026-11-28T09:00:00.000Z', data: { entity: 'ticket', id: 7 } });

describe('signWebhook', () => {
  it('signs so that an independent Standard Webhooks implementation accepts the body', () => {
    const headers = signWebhook(secretKey(secret)!, 'evt_123', new Date(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('is refused by that implementation when the body was changed on the way', () => {
    const headers = signWebhook(secretKey(secret)!, 'evt_123', new Date(), body);
    expect(() => new Webhook(secret).verify(body.replace('"id":7', '"id":8'), { ...headers })).toThrow();
  });

  it('is refused with another secret, another id, or an old timestamp', () => {
    const headers = signWebhook(secretKey(secret)!, 'evt_123', new Date(), body);
    expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_124' })).toThrow();
    const old = signWebhook(secretKey(secret)!, 'evt_123', new Date(Date.now() - 3600_000), body);
    expect(() => new Webhook(secret).verify(body, { ...old })).toThrow();
  });
});

describe('secretKey', () => {
  it('reads whsec_<base64> and refuses anything else', () => {
    expect(secretKey(secret)?.length).toBe(32);
    expect(secretKey(randomBytes(32).toString('base64'))).toBeNull();
    expect(secretKey('whsec_not base64!')).toBeNull();
    expect(secretKey(`whsec_${randomBytes(8).toString('base64')}`)).toBeNull();
  });
});
