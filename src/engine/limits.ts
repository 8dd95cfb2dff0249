import type { AppModel } from './spec/model';

/**
 * The limits of the API, each with a default that a spec constant of the same name replaces
 * (`constants: { apiMaxPageSize: { value: 50 } }`). The spec check makes sure such a constant
 * is a positive whole number (see LIMIT_CONSTANTS), so resolving them cannot fail.
 */
export interface Limits {
  /** Largest request body accepted, in bytes (413 beyond). */
  readonly maxBodyBytes: number;
  /** Largest `?limit=` of a list page. */
  readonly maxPageSize: number;
  /** Requests per minute per API token or signed-in user (429 beyond). */
  readonly rateLimitPerMinute: number;
  /** Requests per minute per client address, signed in or not (429 beyond). */
  readonly rateLimitPerMinutePerIp: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxBodyBytes: 1024 * 1024,
  maxPageSize: 100,
  rateLimitPerMinute: 600,
  rateLimitPerMinutePerIp: 1200,
};

/** The spec constant that sets each limit, and the largest value it may take. */
export const LIMIT_CONSTANTS: Readonly<Record<keyof Limits, { readonly constant: string; readonly max: number }>> = {
  maxBodyBytes: { constant: 'apiMaxBodyBytes', max: 64 * 1024 * 1024 },
  // ops refuse pages beyond 500 rows whatever the door.
  maxPageSize: { constant: 'apiMaxPageSize', max: 500 },
  rateLimitPerMinute: { constant: 'apiRateLimitPerMinute', max: 1_000_000 },
  rateLimitPerMinutePerIp: { constant: 'apiRateLimitPerIpPerMinute', max: 1_000_000 },
};

export function resolveLimits(model: AppModel): Limits {
  const pick = (key: keyof Limits): number => {
    const value = model.constants[LIMIT_CONSTANTS[key].constant]?.value;
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_LIMITS[key];
  };
  return {
    maxBodyBytes: pick('maxBodyBytes'),
    maxPageSize: pick('maxPageSize'),
    rateLimitPerMinute: pick('rateLimitPerMinute'),
    rateLimitPerMinutePerIp: pick('rateLimitPerMinutePerIp'),
  };
}
