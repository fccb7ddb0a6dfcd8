import { describe, expect, it } from 'vitest';
import { startLoop } from '../../../src-main/agent/base/loop.ts';
import { createFakeClock } from '../../support/fake-clock.ts';

describe('startLoop', () => {
  it('runs, waits the delay the task asks for, and runs again', async () => {
    const clock = createFakeClock();
    const runs: number[] = [];
    const loop = startLoop({
      clock,
      onError: () => undefined,
      fallbackDelayMs: 1000,
      run: () => {
        runs.push(clock.monotonic());
        return Promise.resolve(runs.length === 1 ? 5000 : 2000);
      },
    });
    await clock.advance(0);
    await clock.advance(9000);
    expect(runs).toEqual([0, 5000, 7000, 9000]);
    await loop.stop();
  });

  it('trigger cuts the wait short', async () => {
    const clock = createFakeClock();
    let runs = 0;
    const loop = startLoop({
      clock,
      onError: () => undefined,
      fallbackDelayMs: 1000,
      run: () => Promise.resolve((runs++, 60_000)),
    });
    await clock.advance(0);
    expect(runs).toBe(1);
    loop.trigger();
    await clock.advance(1);
    expect(runs).toBe(2);
    await loop.stop();
  });

  it('a task that throws is reported and retried after the fallback delay', async () => {
    const clock = createFakeClock();
    const errors: unknown[] = [];
    let runs = 0;
    const loop = startLoop({
      clock,
      onError: (e) => errors.push(e),
      fallbackDelayMs: 1000,
      run: () => (runs++ === 0 ? Promise.reject(new Error('bug')) : Promise.resolve(60_000)),
    });
    await clock.advance(999);
    expect(runs).toBe(1);
    await clock.advance(1);
    expect(runs).toBe(2);
    expect(errors).toHaveLength(1);
    await loop.stop();
  });

  it('stop waits for the run in progress and ends the loop', async () => {
    const clock = createFakeClock();
    let finish: () => void = () => undefined;
    let finished = false;
    const loop = startLoop({
      clock,
      onError: () => undefined,
      fallbackDelayMs: 1000,
      run: () =>
        new Promise<number>((resolve) => {
          finish = () => {
            finished = true;
            resolve(10);
          };
        }),
    });
    await clock.advance(0);
    const stopping = loop.stop();
    finish();
    await stopping;
    expect(finished).toBe(true);
    expect(clock.pending()).toBe(0);
  });
});
