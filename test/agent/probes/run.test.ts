// The run context every probe shares (probes/run.ts): deadline and the caller's stop signal.
import { describe, expect, it } from 'vitest';
import { startRun } from '../../../src-main/agent/probes/run.ts';
import type { ProbeContext } from '../../../src-main/agent/probes/types.ts';
import { makeCa } from '../../targets/certs.ts';
import { definition } from './definition.ts';

describe('startRun', () => {
  it('every run in flight follows one caller signal; finished runs no longer do', () => {
    const stop = new AbortController();
    const runs = Array.from({ length: 3 }, () =>
      startRun(definition({ url: 'http://127.0.0.1:9/' }), { signal: stop.signal }),
    );
    const [finished, ...inFlight] = runs;
    finished?.finish();
    stop.abort(new Error('stopping'));
    expect(inFlight.map((r) => r.stopped())).toEqual([true, true]);
    expect(inFlight.map((r) => r.cancelled())).toEqual([true, true]);
    expect(finished?.stopped()).toBe(false);
    for (const run of inFlight) run.finish();
  });

  it('a run started after the caller signal aborted starts aborted', () => {
    const stop = new AbortController();
    stop.abort();
    const run = startRun(definition({ url: 'http://127.0.0.1:9/' }), { signal: stop.signal });
    expect(run.stopped()).toBe(true);
    run.finish();
  });

  it('runs share one TLS context per trust list, so no connection builds its own', async () => {
    const office = [(await makeCa('Office CA')).cert];
    const trustOf = (ctx: ProbeContext) => {
      const run = startRun(definition({ url: 'https://127.0.0.1:9/' }), ctx);
      run.finish();
      return run.trust;
    };
    expect(trustOf({})).toBe(trustOf({ ca: [] }));
    expect(trustOf({ ca: office })).toBe(trustOf({ ca: office }));
    expect(trustOf({ ca: office })).not.toBe(trustOf({}));
    // Changed settings arrive as a new list: its own context, never a stale one.
    expect(trustOf({ ca: [...office] })).not.toBe(trustOf({ ca: office }));
  });
});
