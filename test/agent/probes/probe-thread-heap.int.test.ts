// The probe thread's heap is its own (runtime-v8-flags.ts): in a real process started with the
// agent's heap sizes (the command's first line; test/electron/v8-flags.test.ts keeps the desktop
// app's equal), the probe thread's young generation grows past the process's and its old
// generation is bounded below the process's, while a thread started afterwards keeps the
// process's sizes (the main thread's were set when the process started, before any of this), and
// so does a probe thread started without the bound (after one outgrew it: runs/probe-placement.ts).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ownHeapFlagMb,
  probeThreadOldSpaceMb,
  probeThreadSemiSpaceMb,
} from '../../../src-main/agent/base/runtime-v8-flags.ts';
import { commandFirstLine } from '../../support/cli.ts';

/** The process's own sizes, from the command's first line (the desktop app's flags equal it). */
const commandLine = commandFirstLine();
const processSemiSpaceMb = ownHeapFlagMb('semiSpace', [commandLine]);
const processOldSpaceMb = ownHeapFlagMb('oldSpace', [commandLine]);
if (processSemiSpaceMb === 0 || processOldSpaceMb === 0) throw new Error(`no heap sizes in ${commandLine}`);

const probeThreadUrl = pathToFileURL(
  resolve(import.meta.dirname, '../../../src-main/agent/probes/probe-thread.ts'),
).href;

// Keeps a window of young objects alive while it allocates, so that V8 grows the young
// generation as far as it may; answers the capacity of one semi-space (what is used and what is
// left of it), the median of readings over the second half: a single reading can overshoot the
// limit for a moment (seen up to 7.6 MB with 2 MB, even in a process that never changed a flag).
const churn = `
  import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
  const semiSpace = () => {
    const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    return space.space_used_size + space.space_available_size;
  };
  export function grownSemiSpace() {
    let kept = [];
    const readings = [];
    for (let i = 0; i < 3_000_000; i++) {
      kept.push({ i, text: 'x' + i });
      if (kept.length > 150_000) kept = [];
      if (i >= 1_500_000 && i % 50_000 === 0) readings.push(semiSpace());
    }
    readings.sort((a, b) => a - b);
    return { semiSpace: readings[readings.length >> 1], limit: getHeapStatistics().heap_size_limit };
  }
`;

// A probe thread script that answers every run with the young generation it grew to and its heap's
// limit (as the outcome's error text): the sizes are those of the thread createProbeThread started.
const reportingEntry = `data:text/javascript,${encodeURIComponent(`
  import { parentPort } from 'node:worker_threads';
  ${churn}
  parentPort.on('message', (message) => {
    const size = JSON.stringify(grownSemiSpace());
    parentPort.postMessage({ outcomes: message.runs.map((run) => [run.id, { success: false, error: size }]) });
  });
`)}`;

// A plain thread, started after the probe thread runs: it must get the process's size again.
const plainEntry = `data:text/javascript,${encodeURIComponent(`
  import { parentPort } from 'node:worker_threads';
  ${churn}
  parentPort.postMessage(grownSemiSpace());
`)}`;

const script = `
  import { Worker } from 'node:worker_threads';
  const { createProbeThread } = await import(${JSON.stringify(probeThreadUrl)});
  const run = async (oldSpaceMb) => {
    const thread = createProbeThread({ onLost: (loss) => { throw loss.reason; }, oldSpaceMb, entry: new URL(${JSON.stringify(reportingEntry)}) });
    const outcome = await thread.probe({ type: 'tcp', guid: 'g', host: '127.0.0.1', port: 1 }, {});
    await thread.close();
    return JSON.parse(outcome.error);
  };
  const probeThread = await run(${probeThreadOldSpaceMb});
  const plain = new Worker(new URL(${JSON.stringify(plainEntry)}));
  const later = await new Promise((resolve) => plain.once('message', resolve));
  await plain.terminate();
  const unbounded = await run(undefined);
  console.log(JSON.stringify({ probeThread, later, unbounded }));
`;

interface Sizes {
  semiSpace: number;
  limit: number;
}

describe("the probe thread's heap", () => {
  it('has a larger young generation and a smaller old one than the process’s own, which later threads keep', () => {
    const child = spawnSync(
      process.execPath,
      [
        `--max-semi-space-size=${processSemiSpaceMb}`,
        `--max-old-space-size=${processOldSpaceMb}`,
        '--input-type=module',
        '--eval',
        script,
      ],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(child.stderr).toBe('');
    const sizes = JSON.parse(child.stdout) as { probeThread: Sizes; later: Sizes; unbounded: Sizes };
    const mb = 1024 * 1024;
    expect(sizes.probeThread.semiSpace).toBeGreaterThan((probeThreadSemiSpaceMb - 0.5) * mb);
    expect(sizes.probeThread.semiSpace).toBeLessThanOrEqual(probeThreadSemiSpaceMb * mb);
    expect(sizes.later.semiSpace).toBeLessThanOrEqual(processSemiSpaceMb * mb);
    // A heap's limit is its old generation's and its young generation's together.
    expect(sizes.probeThread.limit).toBeGreaterThanOrEqual(probeThreadOldSpaceMb * mb);
    expect(sizes.probeThread.limit).toBeLessThan(processOldSpaceMb * mb);
    expect(sizes.later.limit).toBeGreaterThanOrEqual(processOldSpaceMb * mb);
    expect(sizes.unbounded.limit).toBeGreaterThanOrEqual(processOldSpaceMb * mb);
    expect(sizes.unbounded.semiSpace).toBeGreaterThan((probeThreadSemiSpaceMb - 0.5) * mb);
  });
});
