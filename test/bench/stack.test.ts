// How bench:flags writes a copy of the command's first line for each set it is given
// (bench/agent/stack.ts): the set's flags replace the command's, and its leading NAME=value words
// join the command's environment, so that an allocator setting can be compared as a flag is.
import { describe, expect, it } from 'vitest';
import { launchWith, parseShebang, shebangOf } from '../../bench/agent/stack.ts';

const command = parseShebang(
  '#!/usr/bin/env -S MALLOC_ARENA_MAX=1 node --max-semi-space-size=2 --max-old-space-size=256  --no-memory-reducer',
);

describe('bench:flags launch lines', () => {
  it('reads the command own environment and flags', () => {
    expect(command).toEqual({
      env: { MALLOC_ARENA_MAX: '1' },
      nodeArgs: ['--max-semi-space-size=2', '--max-old-space-size=256', '--no-memory-reducer'],
    });
  });

  it('puts a set of flags in place of the command own, keeping its environment', () => {
    const line = shebangOf(launchWith(command, ' --max-semi-space-size=1 --max-old-space-size=256 '));
    expect(line).toBe('#!/usr/bin/env -S MALLOC_ARENA_MAX=1 node --max-semi-space-size=1 --max-old-space-size=256');
  });

  it('adds a set leading assignments to the environment, a same name replacing the command own', () => {
    const launch = launchWith(command, 'MALLOC_TOP_PAD_=0 MALLOC_ARENA_MAX=2 --max-semi-space-size=2');
    expect(launch).toEqual({
      env: { MALLOC_ARENA_MAX: '2', MALLOC_TOP_PAD_: '0' },
      nodeArgs: ['--max-semi-space-size=2'],
    });
    expect(parseShebang(shebangOf(launch))).toEqual(launch);
  });

  it('takes an assignment after the first flag as a flag, as env -S would pass it to node', () => {
    expect(launchWith(command, '--a FOO=1').nodeArgs).toEqual(['--a', 'FOO=1']);
    expect(launchWith(command, 'FOO=1').nodeArgs).toEqual([]);
  });
});
