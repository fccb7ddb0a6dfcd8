// The run's temporary folder (vitest's global setup): everything made under the OS temp dir during
// the run lands in one folder, and the run's end removes it with all it holds.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import runTempFolder from './run-temp-folder.ts';

describe("the run's temporary folder", () => {
  it('points the OS temp dir at a fresh folder, then removes it and puts the temp dir back', () => {
    const outer = tmpdir();
    const before = process.env.TMPDIR;
    const teardown = runTempFolder();
    const folder = tmpdir();
    try {
      expect(folder).not.toBe(outer);
      expect(dirname(folder)).toBe(outer);
      mkdirSync(join(folder, 'data'));
      writeFileSync(join(folder, 'data', 'agent.db'), 'x');
    } finally {
      teardown();
    }
    expect(existsSync(folder)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
    expect(tmpdir()).toBe(outer);
  });
});
