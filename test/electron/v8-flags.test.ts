// The agent's V8 flags are written in two files that cannot import each other: the headless
// command's first line (src-main/cli/main.ts, which the bench also reads) and the desktop app's
// launch arguments (electron-builder.yml). The tray app runs the same agent, so it must run it
// under the same flags: this keeps the two equal. Pure: reads two files of the repository.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const read = (file: string): string => readFileSync(resolve(root, file), 'utf8');

describe("the agent's V8 flags", () => {
  it('are the same for the headless command and the packaged desktop app', () => {
    const shebang = /^#!\/usr\/bin\/env -S (?:\w+=\S+ )*node (.+)$/m.exec(read('src-main/cli/main.ts'))?.[1];
    const desktop = /--js-flags=([^'"\]]+)/.exec(read('electron-builder.yml'))?.[1];
    expect(shebang).toMatch(/--max-old-space-size=\d+/);
    expect(desktop).toBe(shebang);
  });

  it('fit the kernel limit of a script first line (127 bytes), beyond which env would get a truncated flag', () => {
    const [first = ''] = read('src-main/cli/main.ts').split('\n');
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(127);
  });
});
