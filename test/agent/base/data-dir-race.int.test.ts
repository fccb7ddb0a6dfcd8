// An enroll on the data folder of a running agent: the agent writes live-state.json through a
// temporary file renamed into place a few times a second, so a file the folder listing named can
// be gone a moment later. Narrowing the folder's modes must pass over it, not fail the enroll as
// "not writable (ENOENT)" (seen in CI: test/cli/identity-change.int.test.ts).
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { prepareDataDir } from '../../../src-main/agent/base/data-dir.ts';
import { tempDataDir } from '../../support/cli.ts';

describe.skipIf(process.platform === 'win32')('data folder preparation beside a running agent', () => {
  it('passes over files that vanish between the listing and their check', async () => {
    const dataDir = await tempDataDir();
    // Writes as the live state does (live/live-state-file.ts): a temporary file, renamed over the old.
    const writer = new Worker(
      `const { writeFileSync, renameSync } = require('node:fs');
       const { workerData, parentPort } = require('node:worker_threads');
       const file = workerData + '/live-state.json';
       let stop = false;
       parentPort.on('message', () => (stop = true));
       (function loop() {
         for (let i = 0; i < 200; i++) {
           const temp = file + '.' + i + '.tmp';
           writeFileSync(temp, '{}', { mode: 0o644 });
           renameSync(temp, file);
         }
         if (!stop) setImmediate(loop);
       })();`,
      { eval: true, workerData: dataDir },
    );
    await new Promise((resolve) => writer.once('online', resolve));
    const failures: string[] = [];
    try {
      for (let i = 0; i < 3_000; i++) {
        try {
          prepareDataDir(dataDir);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    } finally {
      writer.postMessage('stop');
      await writer.terminate();
    }
    expect(failures.slice(0, 3)).toEqual([]);
  });
});
