// The headless command's log lines: JSON for machines, readable lines on a terminal, secrets
// redacted in both.
import { describe, expect, it } from 'vitest';
import { createLogger, humanLine } from '../../../src-main/agent/base/log.ts';

const at = new Date(2026, 10, 22, 9, 5, 7, 42).getTime();
const line = (fields: Record<string, unknown>): string =>
  `${JSON.stringify({ level: 30, time: at, pid: 7, hostname: 'h', name: 'uptime-agent', ...fields })}\n`;

describe('humanLine', () => {
  const cases: { name: string; json: string; expected: string }[] = [
    { name: 'message only', json: line({ msg: 'agent running' }), expected: '09:05:07.042 INFO  agent running\n' },
    { name: 'warn level', json: line({ level: 40, msg: 'slow' }), expected: '09:05:07.042 WARN  slow\n' },
    {
      name: 'bare and quoted values',
      json: line({ msg: 'stopping', signal: 'SIGTERM', dataDir: '/tmp/a b' }),
      expected: '09:05:07.042 INFO  stopping signal=SIGTERM dataDir="/tmp/a b"\n',
    },
    {
      name: 'numbers and objects',
      json: line({ msg: 'synced', checks: 3, counts: { ok: 1 } }),
      expected: '09:05:07.042 INFO  synced checks=3 counts={"ok":1}\n',
    },
    {
      name: 'an error shows its message',
      json: line({
        level: 50,
        msg: 'upload failed',
        err: { type: 'Error', message: 'connect ECONNREFUSED', stack: 'Error: …' },
      }),
      expected: '09:05:07.042 ERROR upload failed err="connect ECONNREFUSED"\n',
    },
    { name: 'not JSON passes through', json: 'plain text', expected: 'plain text\n' },
  ];
  it.each(cases)('$name', ({ json, expected }) => expect(humanLine(json)).toBe(expected));
});

describe('createLogger', () => {
  function capture(format: (json: string) => string = (json) => json): { lines: string[]; write(json: string): void } {
    const lines: string[] = [];
    return { lines, write: (json) => lines.push(format(json)) };
  }

  it('redacts secrets before the readable formatter sees them', () => {
    const out = capture(humanLine);
    createLogger(out, 'info').info(
      { apiKey: 'ak_secret_value', check: { headers: { 'X-Token': 'hdr_secret' } } },
      'enrolled',
    );
    expect(out.lines.join('')).toContain('apiKey=[redacted]');
    expect(out.lines.join('')).not.toMatch(/ak_secret_value|hdr_secret/);
  });

  it('writes one JSON object per line for machines', () => {
    const out = capture();
    createLogger(out, 'info').info({ token: 'tok_secret' }, 'hello');
    expect(out.lines).toHaveLength(1);
    expect(JSON.parse(out.lines[0] ?? '')).toMatchObject({ msg: 'hello', token: '[redacted]', level: 30 });
  });

  it('an unknown level (a typo in UPTIME_AGENT_LOG_LEVEL) logs at info after one warning', () => {
    const out = capture();
    const log = createLogger(out, 'loud');
    log.debug('hidden');
    log.info('shown');
    expect(out.lines.map((line) => JSON.parse(line) as { level: number; msg: string })).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringContaining('"loud" is not a log level') as string }),
      expect.objectContaining({ level: 30, msg: 'shown' }),
    ]);
  });

  it('a known level in any case is used as is', () => {
    const out = capture();
    createLogger(out, 'WARN').info('hidden');
    expect(out.lines).toEqual([]);
  });
});
