// One running agent per data folder: two would run every check twice and race on the outbox.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type LockOutcome = { ok: true; release: () => void } | { ok: false; pid: number };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `<dataDir>/agent.lock`; a lock left by a dead process (after a crash) is taken over. */
export function takeInstanceLock(dataDir: string): LockOutcome {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'agent.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return { ok: true, release: () => rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) return { ok: false, pid };
      rmSync(file, { force: true });
    }
  }
  return { ok: false, pid: -1 };
}
