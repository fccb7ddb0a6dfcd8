// The one file-watching mechanism (key file and private definitions file): the poll behind the
// watch, driven by the fake clock, on a path whose folder does not exist (so no watch is set up).
import { describe, expect, it } from 'vitest';
import { watchFile } from '../../../src-main/agent/base/file-watch.ts';
import { createFakeClock } from '../../support/fake-clock.ts';

describe('watchFile', () => {
  it('reports a change the poll sees once, after it settled, and nothing once closed', async () => {
    const clock = createFakeClock();
    let version = 0;
    let seen = 0;
    let changes = 0;
    let asked = 0;
    const watch = watchFile({
      file: '/nonexistent-folder-for-file-watch-test/file.json',
      clock,
      settleMs: 50,
      pollMs: 1_000,
      changed: () => {
        asked++;
        return version !== seen;
      },
      onChange: () => {
        seen = version;
        changes++;
      },
    });
    try {
      await clock.advance(1_000);
      expect(changes).toBe(0);
      version = 1;
      await clock.advance(1_000); // the poll sees it and waits for it to settle
      expect(changes).toBe(0);
      await clock.advance(50);
      expect(changes).toBe(1);
      await clock.advance(5_000);
      expect(changes).toBe(1);
      expect(asked).toBe(8); // seven polls and one settle
    } finally {
      watch.close();
    }
    version = 2;
    await clock.advance(5_000);
    expect(changes).toBe(1);
  });
});
