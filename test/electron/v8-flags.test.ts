// The agent's V8 flags are written in two files that cannot import each other: the headless
// command's first line (src-main/cli/main.ts, which the bench also reads) and the desktop app's
// launch arguments (electron-builder.yml). The tray app runs the same agent, so it must run it
// under the same flags: this keeps the two equal. Pure: reads two files of the repository.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandFirstLine } from '../support/cli.ts';

const root = resolve(import.meta.dirname, '../..');
const read = (file: string): string => readFileSync(resolve(root, file), 'utf8');
const firstLine = commandFirstLine();

describe("the agent's V8 flags", () => {
  it('are the same for the headless command and the packaged desktop app', () => {
    const shebang = /^#!\/usr\/bin\/env -S (?:\w+=\S+ )*node (.+)$/.exec(firstLine)?.[1];
    const desktop = /--js-flags=([^'"\]]+)/.exec(read('electron-builder.yml'))?.[1];
    expect(shebang).toMatch(/--max-old-space-size=\d+/);
    // The first line pads its first 127 bytes with spaces (below), which env -S reads as one.
    const words = shebang?.split(/ +/) ?? [];
    // Node's own options are not V8's and cannot go in --js-flags: the desktop app's Node platform
    // is Electron's, which sizes V8's helper threads itself (src-main/cli/main.ts).
    expect(desktop).toBe(words.filter((word) => !word.startsWith('--v8-pool-size=')).join(' '));
  });

  // Linux before 5.1 reads 127 bytes of a script's first line and silently drops the rest. A flag
  // cut in two there would stop node from starting at all; whole flags past it are only left out.
  it('keep their first 127 bytes whole, with the heap bounds and the compile thread inside them', () => {
    expect(firstLine).toMatch(/^[\x20-\x7e]+$/);
    const kept = firstLine.slice(0, 127);
    if (firstLine.length > 127) expect(firstLine[127]).toBe(' ');
    for (const essential of [
      'MALLOC_ARENA_MAX=1',
      '--max-semi-space-size=',
      '--max-old-space-size=',
      '--no-concurrent-recompilation',
    ])
      expect(kept).toContain(essential);
  });

  // At rest V8's memory reducer ran a full GC about every 100 s to give back ~1 MB
  // (issue 26): ~20 % of the resting CPU. V8 reads the flag only as the process starts.
  it("turn V8's memory reducer off", () => {
    expect(firstLine.split(' ')).toContain('--no-memory-reducer');
  });
});
