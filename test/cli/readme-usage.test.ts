// The README's "Command reference" is what `uptime-agent --help` prints, word for word: the
// text lives once, in src-main/cli/usage.ts, and this test fails with a diff when the two part.
// To fix a failure, paste the output of `npm run agent -- --help` into the README block.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usageText } from '../../src-main/cli/usage.ts';
import { repoRoot } from '../architecture/house.ts';

/** The first fenced block after the "### Command reference" heading. */
function commandReference(readme: string): string | undefined {
  const section = readme.split(/^### Command reference$/m)[1];
  return section === undefined ? undefined : /^```\n([\s\S]*?)^```$/m.exec(section)?.[1];
}

describe('the README command reference', () => {
  it('is the help text of the command', () => {
    const block = commandReference(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
    expect(block, 'README.md has no "### Command reference" block').toBeDefined();
    expect(block?.trimEnd()).toBe(usageText.trimEnd());
  });

  it('finds the block (the check itself can fail)', () => {
    expect(commandReference('# x\n### Command reference\n\n```\nuptime-agent a\n```\n')).toBe('uptime-agent a\n');
    expect(commandReference('# no such section\n```\nx\n```\n')).toBeUndefined();
  });
});
