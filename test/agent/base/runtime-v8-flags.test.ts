// Where the process's own heap sizes are read from, to be set back after the probe thread
// started with its own (runtime-v8-flags.ts). Pure.
import { describe, expect, it } from 'vitest';
import { ownHeapFlagMb } from '../../../src-main/agent/base/runtime-v8-flags.ts';

describe("the process's own heap sizes", () => {
  it('are read from the command line, as the headless command gives them', () => {
    const argv = ['--max-semi-space-size=2', '--max-old-space-size=256', '/app/cli/main.js', 'run'];
    expect(ownHeapFlagMb('semiSpace', argv)).toBe(2);
    expect(ownHeapFlagMb('oldSpace', argv)).toBe(256);
  });

  it("are read from Electron's --js-flags, as the desktop app gives them", () => {
    const argv = ['/opt/app/uptime-agent', '--js-flags=--max-semi-space-size=2 --max-old-space-size=256'];
    expect(ownHeapFlagMb('semiSpace', argv)).toBe(2);
    expect(ownHeapFlagMb('oldSpace', argv)).toBe(256);
  });

  it('take the last one given, as V8 does, in either spelling', () => {
    expect(ownHeapFlagMb('semiSpace', ['--max-semi-space-size=4', '--max_semi_space_size=16'])).toBe(16);
    expect(ownHeapFlagMb('oldSpace', ['NODE_OPTIONS --max_old_space_size=64', '--max-old-space-size=128'])).toBe(128);
  });

  it("are 0 (V8's own default) when nothing sets them", () => {
    expect(ownHeapFlagMb('semiSpace', ['', '/usr/bin/node', 'main.js', '--max-old-space-size=256'])).toBe(0);
    expect(ownHeapFlagMb('oldSpace', ['', '/usr/bin/node', 'main.js', '--max-semi-space-size=2'])).toBe(0);
  });
});
