// The data folder's lock is held only by a live uptime-agent: a pid that now belongs to an
// unrelated process (after a crash and a reboot) is a stale lock and is taken over.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { lockFile, processStartTime, takeInstanceLock } from '../../../src-main/agent/identity/instance-lock.ts';
import { tempDataDir } from '../../support/cli.ts';

const onLinux = process.platform === 'linux';

describe('instance lock', () => {
  let other: ChildProcess | undefined;
  afterEach(() => {
    other?.kill();
    other = undefined;
  });

  /** A real process that is not an uptime-agent. */
  function unrelatedProcess(): number {
    other = spawn('sleep', ['30'], { stdio: 'ignore' });
    if (other.pid === undefined) throw new Error('could not start sleep');
    return other.pid;
  }

  it('is taken 0600, refused to a second taker while held, and free again after release', async () => {
    const dir = await tempDataDir();
    const first = takeInstanceLock(dir);
    expect(first.ok).toBe(true);
    if (onLinux) expect(statSync(lockFile(dir)).mode & 0o777).toBe(0o600);
    // Written by a live agent (this process): another taker is refused.
    const record = JSON.parse(readFileSync(lockFile(dir), 'utf8')) as { pid: number; started?: string };
    expect(record.pid).toBe(process.pid);
    if (first.ok) first.release();
    const again = takeInstanceLock(dir);
    expect(again).toMatchObject({ ok: true });
    if (again.ok) again.release();
  });

  it.skipIf(!onLinux)(
    'takes over a lock whose pid now belongs to an unrelated process (old pid-only lock)',
    async () => {
      const dir = await tempDataDir();
      const pid = unrelatedProcess();
      writeFileSync(lockFile(dir), String(pid));
      const outcome = takeInstanceLock(dir);
      expect(outcome).toMatchObject({ ok: true, tookOver: { pid } });
      if (outcome.ok) outcome.release();
    },
  );

  it.skipIf(!onLinux)('takes over a lock naming a live pid whose process started at another time', async () => {
    const dir = await tempDataDir();
    const pid = unrelatedProcess();
    writeFileSync(lockFile(dir), JSON.stringify({ pid, started: '1' }));
    const outcome = takeInstanceLock(dir);
    expect(outcome).toMatchObject({ ok: true, tookOver: { pid } });
    if (outcome.ok) outcome.release();
  });

  it.skipIf(!onLinux)('is refused while the process that wrote it (pid and start time) is alive', async () => {
    const dir = await tempDataDir();
    const pid = unrelatedProcess();
    writeFileSync(lockFile(dir), JSON.stringify({ pid, started: processStartTime(pid) }));
    expect(takeInstanceLock(dir)).toEqual({ ok: false, pid });
    other?.kill();
    await new Promise((resolve) => other?.once('exit', resolve));
    const outcome = takeInstanceLock(dir);
    expect(outcome).toMatchObject({ ok: true, tookOver: { pid } });
    if (outcome.ok) outcome.release();
  });
});
