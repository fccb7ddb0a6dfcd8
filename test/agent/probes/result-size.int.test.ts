// Issue 12 §5: every result fits one upload call. With result_detail_max_chars 2000000 and a
// 1.5 MB body, each result used to be 413 even alone and was set aside forever.
import { afterEach, describe, expect, it } from 'vitest';
import { probeDefaults, runProbe } from '../../../src-main/agent/probes/index.ts';
import { enrolledAgent, eventually, type Harness } from '../../support/agent-harness.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';
import { definition } from './definition.ts';

const hugeBody = 'é'.repeat(750_000); // 1.5 MB of UTF-8
/** Code points, as the wire counts them. */
const codePoints = (text: string): number => Array.from(text).length;

describe('one result always fits the wire', () => {
  let h: Harness | undefined;
  let target: HttpTarget | undefined;
  afterEach(async () => {
    await h?.close();
    await target?.close();
  });

  it('the sample and the error stay within their ceilings whatever the cap says', async () => {
    target = await startHttpTarget({ '/': { body: hugeBody } });
    const out = await runProbe(definition({ url: `${target.url}/`, match_string: 'x'.repeat(1_000_000) }), {
      sampleChars: 2_000_000,
    });
    expect(out.success).toBe(false);
    expect(codePoints(out.responseSample)).toBe(probeDefaults.maxSampleChars);
    expect(codePoints(out.error)).toBeLessThanOrEqual(probeDefaults.maxErrorChars);
  });

  it('a 1.5 MB body with result_detail_max_chars 2000000 uploads and is accepted', async () => {
    target = await startHttpTarget({ '/': { body: hugeBody } });
    h = await enrolledAgent();
    const check = h.assignCheck({
      name: 'Huge page',
      url: `${target.url}/`,
      interval_sec: 3600,
      result_detail_max_chars: 2_000_000,
    });
    await h.agent.syncNow();
    const server = h.server;
    const stored = await eventually(
      () => server.results(h?.monitorId).find((r) => r.checkGuid === check.guid),
      15_000,
      'the result on the server',
    );
    expect(stored.success).toBe(true);
    expect(codePoints(stored.responseSample ?? '')).toBe(probeDefaults.maxSampleChars);
    const store = h.store;
    await eventually(() => store.outbox.count() === 0, 5_000, 'the outbox to drain');
    expect(h.server.requests({ endpoint: 'results' }).every((call) => call.status !== 413)).toBe(true);
  });
});
