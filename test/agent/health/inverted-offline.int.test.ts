// Issue 24 point 3: an inverted check whose target gives no answer while this machine is offline
// must not become an uploaded success. The offline policy judges the raw facts (answered or not,
// the verdict before invert_result), as the server's own agent does.
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src-main/agent/base/clock.ts';
import { silentLogger } from '../../../src-main/agent/base/log.ts';
import { createOfflinePolicy } from '../../../src-main/agent/health/offline-policy.ts';
import { storeFile } from '../../../src-main/agent/base/data-dir.ts';
import { createLiveState, initialState } from '../../../src-main/agent/live/state.ts';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { loopback, startSilentPort, type SilentPort } from '../../targets/index.ts';
import { tempDataDir } from '../../support/temp-dir.ts';
import { definition } from '../probes/definition.ts';

describe('an inverted check while offline', () => {
  const silent: SilentPort[] = [];
  afterEach(async () => {
    for (const port of silent.splice(0)) await port.close();
  });

  it('a run with no answer is kept as skipped, never uploaded as the success invert_result would make it', async () => {
    const target = await startSilentPort();
    const connectivityTarget = await startSilentPort();
    silent.push(target, connectivityTarget);
    const outcome = await runProbe(
      definition({ url: `tcp://${loopback}:${target.port}`, timeout_sec: 1, invert_result: true }),
    );
    // What the server would see if this were uploaded: a pass.
    expect(outcome).toMatchObject({ success: true, answered: false, decidedBy: 'inverted' });

    const db = openDatabase(storeFile(await tempDataDir()));
    const live = createLiveState(initialState(new Date(), 0));
    const policy = createOfflinePolicy({
      db,
      clock: systemClock,
      log: silentLogger,
      live,
      targets: () => [{ host: loopback, port: connectivityTarget.port }],
      timeoutMs: 300,
      offlineProbeMs: 50,
      onOffline: () => undefined,
      onOnline: () => undefined,
    });
    expect(await policy.skipsRun(outcome)).toBe(true);
    expect(policy.offline).toBe(true);
    expect(live.get().skippedOffline).toBe(1);
    db.close();
  });
});
