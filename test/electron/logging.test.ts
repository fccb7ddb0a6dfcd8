// The shell's log file: rotated by size, a bounded number of files, secrets redacted.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShellLogger, rotatingFile } from '../../src-main/electron/logging.ts';
import { tempDir } from './support.ts';

let dir: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  dir = await tempDir('logs-');
});
afterEach(() => dir.remove());

describe('rotating file', () => {
  it('keeps at most maxFiles files of at most maxBytes, newest lines in the current one', async () => {
    const file = rotatingFile({ dir: dir.path, name: 'main', maxBytes: 200, maxFiles: 3 });
    for (let i = 0; i < 60; i++) file.write(`line ${String(i).padStart(3, '0')} ${'x'.repeat(20)}\n`);
    file.close();
    expect((await readdir(dir.path)).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    for (const name of ['main.log', 'main.1.log', 'main.2.log'])
      expect((await stat(join(dir.path, name))).size).toBeLessThanOrEqual(200);
    const current = await readFile(join(dir.path, 'main.log'), 'utf8');
    expect(current).toContain('line 059');
    const oldest = await readFile(join(dir.path, 'main.2.log'), 'utf8');
    expect(oldest).not.toContain('line 000');
    if (process.platform !== 'win32') expect((await stat(join(dir.path, 'main.log'))).mode & 0o777).toBe(0o600);
  });

  it('continues an existing file after a restart', async () => {
    const first = rotatingFile({ dir: dir.path, name: 'main', maxBytes: 1000, maxFiles: 2 });
    first.write('before\n');
    first.close();
    const second = rotatingFile({ dir: dir.path, name: 'main', maxBytes: 1000, maxFiles: 2 });
    second.write('after\n');
    second.close();
    expect(await readFile(join(dir.path, 'main.log'), 'utf8')).toBe('before\nafter\n');
  });
});

describe('shell logger', () => {
  it('writes JSON lines to main.log with secrets redacted', async () => {
    const shellLog = createShellLogger({ logsDir: dir.path, development: false });
    const { log, file } = shellLog;
    log.info(
      { apiKey: 'ak_secret_1', enroll: { token: 'tok_secret_2' }, headers: { authorization: 'Bearer x' } },
      'enrolled',
    );
    shellLog.close();
    expect(file).toBe(join(dir.path, 'main.log'));
    const line = JSON.parse((await readFile(file, 'utf8')).trim()) as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: 'enrolled',
      apiKey: '[redacted]',
      enroll: { token: '[redacted]' },
      headers: '[redacted]',
    });
    expect(JSON.stringify(line)).not.toMatch(/secret/);
  });
});
