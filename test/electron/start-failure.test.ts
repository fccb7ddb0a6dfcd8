// The desktop app's start-up failure dialog (issue 25 point 7): words from the failure's kind,
// what happened and what to do; the error's own text (errno names, library text, CLI flags) is
// for the log only.
import { describe, expect, it } from 'vitest';
import { DataDirError } from '../../src-main/agent/base/data-dir.ts';
import { startFailureKind, startFailureText } from '../../src-main/electron/start-failure.ts';

const folders = { dataDir: '/home/ada/.config/Uptime Agent', logsDir: '/home/ada/.config/Uptime Agent/logs' };
const errno = (code: string, message: string): NodeJS.ErrnoException => Object.assign(new Error(message), { code });

describe('a failed start in words', () => {
  it.each([
    {
      name: 'a read-only data folder',
      error: new DataDirError('the data folder /x is read-only; choose another with --data-dir', 'read-only'),
      kind: 'not-writable',
      title: 'Uptime Agent cannot write to its data folder',
    },
    {
      name: 'a full disk, seen through the cause of a wrapping error',
      error: new Error('store open failed', {
        cause: errno('ENOSPC', "ENOSPC: no space left on device, open 'agent.db'"),
      }),
      kind: 'disk-full',
      title: 'The disk is full',
    },
    {
      name: 'a permission error',
      error: errno('EACCES', "EACCES: permission denied, mkdir '/x'"),
      kind: 'not-writable',
      title: 'Uptime Agent cannot write to its data folder',
    },
    {
      name: 'an unusable data folder',
      error: new DataDirError('ENOTDIR: /x is a file', 'unusable'),
      kind: 'data-folder',
      title: 'Uptime Agent cannot use its data folder',
    },
    {
      name: 'anything else',
      error: new TypeError("Cannot read properties of undefined (reading 'whenReady')"),
      kind: 'unexpected',
      title: 'Uptime Agent could not start',
    },
  ])('$name', ({ error, kind, title }) => {
    expect(startFailureKind(error)).toBe(kind);
    const text = startFailureText(error, folders);
    expect(text.title).toBe(title);
    // What to do, and where the details are; never the error's own text.
    expect(text.body).toMatch(/[Ss]tart (Uptime Agent|it) again/);
    expect(text.body).toContain(`The details are in the log, in ${folders.logsDir}.`);
    expect(text.body).not.toMatch(/E[A-Z]{3,}|--data-dir|Cannot read|undefined|store open failed/);
  });
});
