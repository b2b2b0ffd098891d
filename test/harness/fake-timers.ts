/**
 * Runs code that waits on timers (a throttle, an edit interval) against vitest's fake clock while its HTTP requests
 * take real time: the next fake timer fires whenever the code waits on one and no real I/O has come back within a
 * millisecond. A test that measured real seconds of spacing measures the same spacing on the fake clock.
 */
import { setTimeout as realDelay } from 'node:timers/promises';
import { vi } from 'vitest';

export async function withFakeTimers<T>(work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    let done = false;
    const run = work().finally(() => (done = true));
    while (!done) {
      await realDelay(1);
      if (!done && vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
    }
    return await run;
  } finally {
    vi.useRealTimers();
  }
}
