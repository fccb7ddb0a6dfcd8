// The agent's runtime V8 flags take effect in a real process: a child Node runs a workload whose
// allocation sites V8 tenures (objects kept past several young-generation GCs), once as it
// starts and once after applyRuntimeV8Flags, and V8's own pretenuring report tells the two apart.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const moduleUrl = pathToFileURL(resolve(import.meta.dirname, '../../../src-main/agent/base/runtime-v8-flags.ts')).href;

/** V8's pretenuring report of a workload, run with or without the agent's runtime flags. */
function pretenuringReport(apply: boolean): string {
  const script = `
    const { applyRuntimeV8Flags } = await import(${JSON.stringify(moduleUrl)});
    if (${apply}) applyRuntimeV8Flags();
    const kept = [];
    const make = (i) => ({ id: i, list: [i] });
    for (let round = 0; round < 1_000; round++) {
      for (let i = 0; i < 20_000; i++) kept.push(make(i));
      if (kept.length > 100_000) kept.splice(0, 50_000);
    }
    console.log('kept', kept.length);
  `;
  // A 1 MB young generation: many young GCs, so V8 decides on the sites the same way on any machine.
  const child = spawnSync(
    process.execPath,
    ['--trace-pretenuring-statistics', '--max-semi-space-size=1', '--input-type=module', '--eval', script],
    { encoding: 'utf8', timeout: 60_000 },
  );
  expect(child.stderr).toBe('');
  expect(child.stdout).toContain('kept');
  return child.stdout;
}

const tenuredSites = (report: string): number[] => [...report.matchAll(/\btenured=(\d+)/g)].map((m) => Number(m[1]));

describe('the runtime V8 flags', () => {
  it('stop V8 from allocating long-lived sites straight into the old generation', () => {
    // Without them the workload gets sites tenured: the check below can fail.
    expect(Math.max(0, ...tenuredSites(pretenuringReport(false)))).toBeGreaterThan(0);
    const applied = pretenuringReport(true);
    expect(applied).not.toMatch(/=> tenure/);
    expect(Math.max(0, ...tenuredSites(applied))).toBe(0);
  });
});
