import { defineApp } from 'ninefold';
import helpdesk from '../../examples/helpdesk/ninefold.spec';

/**
 * The helpdesk with its API rate limits and live-stream caps raised through constants, as a spec
 * author would: the benchmarks measure the engine, not the limiter (500 idle live streams are
 * opened with one session).
 */
export default defineApp({
  ...helpdesk,
  constants: {
    ...helpdesk.constants,
    apiRateLimitPerMinute: { value: 1_000_000, unit: 'requests' },
    apiRateLimitPerIpPerMinute: { value: 1_000_000, unit: 'requests' },
    liveStreamsPerSession: { value: 1000, unit: 'streams' },
    liveStreamsPerUser: { value: 1000, unit: 'streams' },
  },
});
