// The agent gives the memory of a burst back to the system (heap-release.ts): in a real process
// started with the agent's V8 flags (the command's first line, V8's memory reducer off), a burst
// of ~60 MB kept alive through a full GC and then dropped leaves V8 holding its pages after an
// ordinary full GC; the release that follows hands them back.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandFirstLine } from '../../support/cli.ts';

const heapReleaseUrl = pathToFileURL(resolve(import.meta.dirname, '../../../src-main/agent/base/heap-release.ts')).href;

/** The V8 flags of the command's first line, as the agent runs with them. */
const commandFlags = commandFirstLine()
  .split(/\s+/)
  .filter((word) => word.startsWith('--'));
if (!commandFlags.includes('--no-memory-reducer')) throw new Error(`no --no-memory-reducer in ${commandFirstLine()}`);

const script = `
  import { PerformanceObserver } from 'node:perf_hooks';
  const { exposedGc, giveBackAfterBursts } = await import(${JSON.stringify(heapReleaseUrl)});
  const releases = [];
  // The agent's log hears of each release (debug): this one keeps what it hears.
  const stop = giveBackAfterBursts({ debug: (release) => releases.push(release) });
  // V8's gc(), read as the agent reads it.
  const gc = exposedGc();
  // Waits until this thread's observers have heard of the GCs so far. They hear together, the
  // agent's first, and what the agent's schedules on its own turn runs before this resolves.
  // News of a GC does not keep a process alive: a timer does, meanwhile.
  const heard = () =>
    new Promise((resolve) => {
      const alive = setInterval(() => {}, 1_000);
      const observer = new PerformanceObserver(() => {
        observer.disconnect();
        clearInterval(alive);
        setImmediate(resolve);
      });
      observer.observe({ entryTypes: ['gc'] });
      gc({ type: 'minor' });
    });
  // On globalThis: a variable of this module's own that is never read again would be dead to V8
  // across the next await, and collected before the burst's high is seen.
  globalThis.burst = [];
  for (let i = 0; i < 500_000; i++) globalThis.burst.push({ i, text: 'burst ' + i, pair: [i, -i] });
  gc({ type: 'major' });
  await heard();
  const rssWithBurst = process.memoryUsage.rss();
  globalThis.burst = undefined;
  gc({ type: 'major' });
  const rssAfterFullGc = process.memoryUsage.rss();
  await heard();
  const release = releases[0] ?? null;
  // One more full GC at the working size: no second release for the same high.
  gc({ type: 'major' });
  await heard();
  stop();
  console.log(JSON.stringify({ rssWithBurst, rssAfterFullGc, release, releases: releases.length }));
`;

describe('giving back the memory of a burst', () => {
  it('hands V8’s pages back after the heap has fallen from its high, once', () => {
    const child = spawnSync(process.execPath, [...commandFlags, '--input-type=module', '--eval', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    const figures = JSON.parse(child.stdout) as {
      rssWithBurst: number;
      rssAfterFullGc: number;
      release: { ms: number; rssBefore: number; rssAfter: number } | null;
      releases: number;
    };
    const mb = 1024 * 1024;
    // An ordinary full GC frees the burst's objects but V8 keeps most of their pages...
    expect(figures.rssAfterFullGc).toBeGreaterThan(figures.rssWithBurst - 20 * mb);
    // ...which the release gives back.
    expect(figures.release).not.toBeNull();
    expect(figures.release?.rssAfter).toBeLessThan((figures.release?.rssBefore ?? 0) - 20 * mb);
    expect(figures.releases).toBe(1);
  });
});
