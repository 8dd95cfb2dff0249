import { describe, expect, it } from 'vitest';
import { secretsInLog } from './log-secrets';
import { loggablePath } from './loggable-path';
import { setupCodeAlone, setupCodeMessage } from './setup-code';

const TOKEN = 'A'.repeat(20) + 'b_-'.repeat(7) + '12';

describe('secretsInLog', () => {
  it('finds nothing in the lines the engine writes', () => {
    const log = [
      JSON.stringify({ time: 't', level: 'info', msg: 'signed in', userId: 3, ip: '127.0.0.1' }),
      JSON.stringify({ level: 'warn', msg: 'sign-in failed', emailDomain: 'example.com', reason: 'wrong-password' }),
      JSON.stringify({ level: 'error', msg: 'request failed', digest: 'abc', path: '/invite/[token]' }),
      JSON.stringify({ level: 'warn', msg: setupCodeMessage('8F3K-29QX') }),
      '',
      setupCodeAlone('8F3K-29QX'),
      '',
      '▲ Next.js 16 - Local: http://127.0.0.1:3000',
    ].join('\n');
    expect(secretsInLog(log, ['admin-password-1'])).toEqual([]);
  });

  it('finds each kind of secret by its line, and says which kind', () => {
    expect(TOKEN).toHaveLength(43);
    const lines = [
      'cookie: nf_session=abcdefgh',
      'authorization: Bearer abcdefghijkl',
      `token nf_${TOKEN} made`,
      `GET /invite/${TOKEN}`,
      '{"password":"hunter22"}',
      'body: email=a%40b.c&password=hunter22',
      'the admin-password-1 leaked',
      'a harmless line',
      JSON.stringify({ level: 'warn', msg: setupCodeMessage('8F3K-29QX') }),
      'later: someone logged 8F3K-29QX again',
      setupCodeAlone('8F3K-29QX'),
      `${setupCodeAlone('8F3K-29QX')} and more`,
    ];
    expect(secretsInLog(lines.join('\n'), ['admin-password-1']).map((s) => `${s.line}:${s.kind}`)).toEqual([
      '1:session cookie',
      '2:bearer token',
      '3:API token',
      '4:invitation link',
      '5:secret field',
      '6:password in a form or query',
      '7:known secret',
      '10:known secret',
      '12:known secret',
    ]);
  });
});

describe('loggablePath', () => {
  it('drops the query and the invitation token', () => {
    expect(loggablePath(`/invite/${TOKEN}?x=1`)).toBe('/invite/[token]');
    expect(loggablePath('/tickets/12?password=x')).toBe('/tickets/12');
  });
});
