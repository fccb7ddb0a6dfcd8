// The layout rules of design.md "Style to follow", held by the code itself: no import circle
// anywhere, an agent root that holds the composition root and little else, small modules.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, lineCount, repoRoot, sourceFiles } from './house.ts';

describe('the house', () => {
  it('has no import circle in src-main or src-renderer', () => {
    const files = [...sourceFiles('src-main'), ...sourceFiles('src-renderer')];
    expect(importCircles(files).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('keeps at most 6 files directly in src-main/agent', () => {
    const root = join(repoRoot, 'src-main/agent');
    const files = readdirSync(root).filter((n) => !statSync(join(root, n)).isDirectory());
    expect(files.length, files.join(', ')).toBeLessThanOrEqual(6);
  });

  it('has no file in src-main over 300 lines', () => {
    const long = sourceFiles('src-main').filter((f) => lineCount(f) > 300);
    expect(long.map((f) => `${f}: ${lineCount(f)}`)).toEqual([]);
  });

  it('finds a circle when there is one (the check itself can fail)', () => {
    expect(importCircles(['test/architecture/fixtures/a.ts', 'test/architecture/fixtures/b.ts'])).toHaveLength(1);
  });
});
