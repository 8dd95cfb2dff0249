import { describe, expect, it } from 'vitest';
import { cachedRead, WriteClock } from './write-clock';

function counter() {
  let calls = 0;
  return { load: async () => ++calls, calls: () => calls };
}

describe('WriteClock', () => {
  it('serves a read again from memory until something is written', async () => {
    const clock = new WriteClock();
    const read = counter();
    expect(await clock.cached('k', read.load)).toBe(1);
    expect(await clock.cached('k', read.load)).toBe(1);
    expect(await clock.cached('other', read.load)).toBe(2);
    clock.tick();
    expect(await clock.cached('k', read.load)).toBe(3);
    expect(read.calls()).toBe(3);
  });

  it('does not keep a read during which something was written', async () => {
    const clock = new WriteClock();
    let calls = 0;
    const load = async () => {
      calls++;
      clock.tick(); // a write lands while the read is under way
      return calls;
    };
    await clock.cached('k', load);
    await clock.cached('k', load);
    expect(calls).toBe(2);
  });

  it('keeps a read no longer than its time to live (writes of other processes)', async () => {
    const clock = new WriteClock(20);
    const read = counter();
    await clock.cached('k', read.load);
    await new Promise((resolve) => setTimeout(resolve, 40));
    await clock.cached('k', read.load);
    expect(read.calls()).toBe(2);
  });

  it('reads straight from the database for an object without a clock (a transaction)', async () => {
    const read = counter();
    await cachedRead({}, 'k', read.load);
    await cachedRead({}, 'k', read.load);
    expect(read.calls()).toBe(2);
  });
});
