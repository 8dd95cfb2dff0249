import { defineApp } from 'ninefold';
import helpdesk from '../../examples/helpdesk/ninefold.spec';

/**
 * The helpdesk with its API rate limits raised through constants, as a spec author would: the
 * benchmarks measure the engine, not the limiter.
 */
export default defineApp({
  ...helpdesk,
  constants: {
    ...helpdesk.constants,
    apiRateLimitPerMinute: { value: 1_000_000, unit: 'requests' },
    apiRateLimitPerIpPerMinute: { value: 1_000_000, unit: 'requests' },
  },
});
