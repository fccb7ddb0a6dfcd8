// A key file replaced by another process is noticed within seconds (watch, and a poll behind it).
import { describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../src-main/agent/base/clock.ts';
import { watchIdentityFile } from '../../../src-main/agent/identity/identity-watch.ts';
import { fileKeyVault } from '../../../src-main/agent/identity/key-vault.ts';
import { tempDataDir } from '../../support/cli.ts';
import { eventually } from '../../support/agent-harness.ts';
import { createFakeClock } from '../../support/fake-clock.ts';

const identity = { monitorId: 'abcdefghjkmn', server: 'https://uptime.example.test' };

describe('watching the key file', () => {
  it('reports a new key written by rename once, after it settled', async () => {
    const dir = await tempDataDir();
    const vault = fileKeyVault(dir);
    await vault.save({ apiKey: 'first', identity });
    let changes = 0;
    // The real clock, counting the settle timers it runs: once every one set so far has run, each
    // burst of watch events the save caused has been checked (no fixed pause).
    const settle = { set: 0, ran: 0 };
    const clock: Clock = {
      ...systemClock,
      setTimer: (delayMs, fn) => {
        if (delayMs !== 50) return systemClock.setTimer(delayMs, fn);
        settle.set++;
        return systemClock.setTimer(delayMs, () => (settle.ran++, fn()));
      },
    };
    const watch = watchIdentityFile(vault.file ?? '', () => changes++, { clock, settleMs: 50, pollMs: 60_000 });
    try {
      await vault.save({ apiKey: 'second', identity: { ...identity, monitorId: 'zzzzzzzzzzzz' } });
      await eventually(() => changes === 1, 5_000, 'the change');
      await eventually(() => settle.ran === settle.set, 5_000, 'every settle timer run');
      expect(changes).toBe(1);
      await vault.clear();
      await eventually(() => changes === 2, 5_000, 'the removal');
    } finally {
      watch.close();
    }
  });

  it('reports one change once, however many events and polls see it', async () => {
    const dir = await tempDataDir();
    const vault = fileKeyVault(dir);
    const clock = createFakeClock();
    let changes = 0;
    const watch = watchIdentityFile(`${dir}/api-key`, () => changes++, { clock, settleMs: 50, pollMs: 2_000 });
    try {
      await vault.save({ apiKey: 'k', identity });
      await clock.advance(1_000);
      await clock.advance(1_100);
      expect(changes).toBe(1);
      await clock.advance(4_000);
      expect(changes).toBe(1);
    } finally {
      watch.close();
    }
  });
});
