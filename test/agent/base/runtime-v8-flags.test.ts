// Where the process's own semi-space size is read from, to be set back after the probe thread
// started with its own (runtime-v8-flags.ts). Pure.
import { describe, expect, it } from 'vitest';
import { ownSemiSpaceMb } from '../../../src-main/agent/base/runtime-v8-flags.ts';

describe("the process's own semi-space size", () => {
  it('is read from the command line, as the headless command gives it', () => {
    expect(ownSemiSpaceMb(['--max-semi-space-size=2', '--max-old-space-size=256', '/app/cli/main.js', 'run'])).toBe(2);
  });

  it("is read from Electron's --js-flags, as the desktop app gives it", () => {
    expect(
      ownSemiSpaceMb(['/opt/app/uptime-agent', '--js-flags=--max-semi-space-size=2 --max-old-space-size=256']),
    ).toBe(2);
  });

  it('takes the last one given, as V8 does, in either spelling', () => {
    expect(ownSemiSpaceMb(['--max-semi-space-size=4', '--max_semi_space_size=16'])).toBe(16);
  });

  it("is 0 (V8's own default) when nothing sets it", () => {
    expect(ownSemiSpaceMb(['', '/usr/bin/node', 'main.js', '--max-old-space-size=256'])).toBe(0);
  });
});
