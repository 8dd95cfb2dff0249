import { describe, expect, it } from 'vitest';
import { NinefoldError } from '../errors/ninefold-error';
import { DatabaseAvailability } from './availability';
import { classifyDatabaseError, isConnectionError, UNAVAILABLE_RETRY_AFTER_SECONDS } from './unavailable';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('classifying database errors', () => {
  const unavailable: [string, unknown][] = [
    ['connection refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['connection reset', withCode('ECONNRESET', 'read ECONNRESET')],
    ['timed out', withCode('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:5432')],
    ['broken pipe', withCode('EPIPE', 'write EPIPE')],
    ['host not found', withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND db')],
    ['host unreachable', withCode('EHOSTUNREACH')],
    ['every address refused', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '')],
    ['socket closed under a query', new Error('Connection terminated unexpectedly')],
    ['closed by timeout', new Error('Connection terminated due to connection timeout')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['client connect timeout', new Error('timeout expired')],
    ['query read timeout', new Error('Query read timeout')],
    ['client broken earlier', new Error('Client has encountered a connection error and is not queryable')],
    ['08006 connection_failure', withCode('08006', 'connection failure')],
    ['08001 cannot establish', withCode('08001')],
    ['08P01 protocol violation', withCode('08P01')],
    ['57P01 admin_shutdown', withCode('57P01', 'terminating connection due to administrator command')],
    ['57P02 crash_shutdown', withCode('57P02')],
    ['57P03 cannot_connect_now', withCode('57P03', 'the database system is starting up')],
    ['53300 too_many_connections', withCode('53300', 'sorry, too many clients already')],
    ['embedded worker died', new Error('The embedded database worker stopped (exit code 1).')],
    ['embedded worker crashed', new Error('The embedded database worker stopped: out of memory')],
  ];
  const other: [string, unknown][] = [
    ['unique violation 23505', withCode('23505', 'duplicate key value violates unique constraint')],
    ['foreign key 23503', withCode('23503')],
    ['syntax error 42601', withCode('42601', 'syntax error at or near "Connection terminated"')],
    ['serialization failure 40001', withCode('40001')],
    ['query canceled 57014 (statement timeout)', withCode('57014', 'canceling statement due to statement timeout')],
    ['a file error', withCode('ENOENT')],
    ['the application’s own refusal', new NinefoldError('NOT_FOUND')],
    ['already classified', new NinefoldError('SERVICE_UNAVAILABLE')],
    ['a plain error', new Error('something else')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', null],
    ['an aggregate of other errors', new AggregateError([withCode('23505')], '')],
  ];

  it.each(unavailable)('%s: SERVICE_UNAVAILABLE (503) with Retry-After', (_name, error) => {
    expect(isConnectionError(error)).toBe(true);
    const classified = classifyDatabaseError(error);
    expect(classified).toBeInstanceOf(NinefoldError);
    expect(classified).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
    expect((classified as NinefoldError).message).toBe('The database cannot be reached right now. Try again in a moment.');
    // What the browser's error page receives instead of the message (see serviceUnavailable).
    expect(classified).toHaveProperty('digest', 'SERVICE_UNAVAILABLE');
  });

  it.each(other)('%s: passed on unchanged', (_name, error) => {
    expect(isConnectionError(error)).toBe(false);
    expect(classifyDatabaseError(error)).toBe(error);
  });
});

describe('DatabaseAvailability', () => {
  function setup(answers: boolean[]) {
    const lines: string[] = [];
    let probes = 0;
    const availability = new DatabaseAvailability(
      async () => {
        const ok = answers[Math.min(probes, answers.length - 1)];
        probes++;
        if (!ok) throw withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
      },
      { probeEveryMs: 10, log: (line) => lines.push(line) },
    );
    return { availability, lines, probes: () => probes };
  }
  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('stays up when a connection error is not confirmed by the probe', async () => {
    const { availability, lines, probes } = setup([true]);
    availability.failed();
    await availability.probe();
    expect(availability.down).toBe(false);
    expect(probes()).toBe(1);
    expect(lines).toEqual([]);
  });

  it('goes down on a failed probe, probes again until one succeeds, and says each change once', async () => {
    const { availability, lines, probes } = setup([false, false, false, true]);
    availability.failed();
    await until(() => availability.down);
    availability.failed(); // more failing requests start no probes of their own
    await until(() => !availability.down);
    expect(probes()).toBe(4);
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['database unreachable', 'database reachable again']);
    expect(JSON.parse(lines[0]!).error).toBe('connect ECONNREFUSED 127.0.0.1:5432');
    availability.stop();
  });

  it('comes back up at the first successful query, and stops probing when stopped', async () => {
    const { availability, probes } = setup([false]);
    availability.failed();
    await until(() => availability.down);
    availability.succeeded();
    expect(availability.down).toBe(false);
    availability.failed();
    await until(() => availability.down);
    availability.stop();
    const after = probes();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(probes()).toBe(after);
  });
});
