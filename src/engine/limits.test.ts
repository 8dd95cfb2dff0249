import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import { DEFAULT_LIMITS, resolveLimits } from './limits';
import { buildModel } from './spec/build';

describe('resolveLimits', () => {
  it('gives the defaults when the spec sets none', () => {
    expect(resolveLimits(buildModel(helpdesk))).toEqual({
      maxBodyBytes: 1024 * 1024,
      maxPageSize: 100,
      rateLimitPerMinute: 600,
      rateLimitPerMinutePerIp: 1200,
      sessionIdleMinutes: 720,
      sessionMaxDays: 30,
      signInAttemptsPerAccount: 10,
      signInAttemptsPerIp: 50,
      importMaxBytes: 32 * 1024 * 1024,
      importMaxRows: 100_000,
      importMaxRowsScoped: 1000,
      liveStreamsPerSession: 6,
      liveStreamsPerUser: 20,
    });
  });

  it('takes each limit from its constant', () => {
    const model = buildModel({
      ...helpdesk,
      constants: {
        ...helpdesk.constants,
        apiMaxBodyBytes: { value: 2048, unit: 'bytes' },
        apiMaxPageSize: { value: 20 },
        apiRateLimitPerMinute: { value: 5 },
        apiRateLimitPerIpPerMinute: { value: 7 },
        sessionIdleMinutes: { value: 60, unit: 'minutes' },
        sessionMaxDays: { value: 7, unit: 'days' },
        signInAttemptsPerAccount: { value: 3 },
        signInAttemptsPerIp: { value: 9 },
        importMaxBytes: { value: 1000, unit: 'bytes' },
        importMaxRows: { value: 5000, unit: 'rows' },
        importMaxRowsScoped: { value: 50, unit: 'rows' },
        liveStreamsPerSession: { value: 2, unit: 'streams' },
        liveStreamsPerUser: { value: 4, unit: 'streams' },
      },
    });
    expect(resolveLimits(model)).toEqual({
      maxBodyBytes: 2048,
      maxPageSize: 20,
      rateLimitPerMinute: 5,
      rateLimitPerMinutePerIp: 7,
      sessionIdleMinutes: 60,
      sessionMaxDays: 7,
      signInAttemptsPerAccount: 3,
      signInAttemptsPerIp: 9,
      importMaxBytes: 1000,
      importMaxRows: 5000,
      importMaxRowsScoped: 50,
      liveStreamsPerSession: 2,
      liveStreamsPerUser: 4,
    });
    expect(
      resolveLimits(buildModel({ ...helpdesk, constants: { ...helpdesk.constants, apiMaxPageSize: { value: 30 } } })).maxBodyBytes,
    ).toBe(DEFAULT_LIMITS.maxBodyBytes);
  });
});
