// Every enrollment failure kind has its line on the command line; not saved names the command
// that reclaims the monitor the server issued.
import { describe, expect, it } from 'vitest';
import { enrollFailureKinds } from '../../src-main/agent/identity/enrollment.ts';
import { enrollFailureLine } from '../../src-main/cli/failure-words.ts';

describe('enroll failure lines', () => {
  it.each(enrollFailureKinds.map((kind) => ({ kind })))('$kind has one line', ({ kind }) => {
    const line = enrollFailureLine({ ok: false, kind, message: 'what happened' }, 'https://uptime.example');
    expect(line).toMatch(/^enroll failed: what happened/);
    expect(line).not.toContain('\n');
  });

  it('not saved: the reclaim command with the issued id', () => {
    const line = enrollFailureLine(
      { ok: false, kind: 'not-saved', message: 'the key could not be saved', monitorId: 'q1w2e3r4t5y6' },
      'https://uptime.example',
    );
    expect(line).toContain('uptime-agent enroll --reclaim q1w2e3r4t5y6 --server https://uptime.example');
  });
});
