// Vitest's global setup: one temporary folder for the whole run, removed when the run ends. Every
// test file, spawned CLI, probe thread and browser of the run makes its temporary files under it
// (os.tmpdir() reads TMPDIR, and the workers and children inherit it), so a run leaves nothing
// behind in the system's temp folder. Before, each run left ~600 data folders there (stores, key
// files, settings): /tmp held 8,500 of them and 1.5 GB after a few days of runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function runTempFolder(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'uptime-agent-tests-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    try {
      rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      // A small disk a failed test left mounted keeps its mount point: say where, and go on.
      console.warn(`could not remove the tests' temporary folder ${folder}: ${(error as Error).message}`);
    }
  };
}
