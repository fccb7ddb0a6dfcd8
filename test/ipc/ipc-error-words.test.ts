// Every kind of failed call from the window is said in words from its data alone: no channel
// names, library text, errno names or timestamps. The table is a Record, so a new kind fails
// here until it is covered.
import { expect, it } from 'vitest';
import type { IpcError, IpcErrorKind } from '../../src-main/ipc/ipc-error.ts';
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';

const machineText = /\bE[A-Z]{4,}\b|--[a-z][a-z-]+|\b[a-z]+:[a-z-]+\b|\d{4}-\d\d-\d\dT|undefined|\[object/;

const said: Record<IpcErrorKind, [IpcError, RegExp]> = {
  'unknown-channel': [{ kind: 'unknown-channel' }, /restart Uptime Agent/],
  'bad-arguments': [{ kind: 'bad-arguments', field: 'guid' }, /reload the window/],
  'foreign-sender': [{ kind: 'foreign-sender' }, /did not come from the Uptime Agent window/],
  'not-full-path': [{ kind: 'not-full-path', path: 'checks.json' }, /^"checks\.json" is not a full path/],
  'logs-folder': [{ kind: 'logs-folder', path: '/home/me/logs' }, /logs folder \/home\/me\/logs could not be opened/],
  'no-links-here': [{ kind: 'no-links-here' }, /open the link in your browser/],
  'link-refused': [{ kind: 'link-refused' }, /Only https links/],
  'private-file-refused': [
    {
      kind: 'private-file-refused',
      detail: 'good.json: the file is not valid JSON (line 3)',
      path: '/home/me/good.json',
    },
    /not valid JSON \(line 3\)\. The definitions from \/home\/me\/good\.json stay in force\.$/,
  ],
  'no-answer': [{ kind: 'no-answer' }, /does not answer/],
  'token-refused': [{ kind: 'token-refused' }, /newest URL/],
  'http-status': [{ kind: 'http-status', status: 500 }, /status 500/],
  failed: [{ kind: 'failed' }, /could not be done: try again/],
};

it('says each kind of failed call in words, from data alone', () => {
  for (const [kind, [error, words]] of Object.entries(said)) {
    expect(error.kind).toBe(kind);
    const text = ipcErrorWords(error);
    expect(text, kind).toMatch(words);
    expect(text, kind).not.toMatch(machineText);
  }
});

it('finds machine text where there is some', () => {
  for (const text of ['private:choose-file failed: EACCES', 'at 2026-11-21T10:00:00Z', 'run with --verbose'])
    expect(text).toMatch(machineText);
});
