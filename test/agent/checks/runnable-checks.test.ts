import { describe, expect, it } from 'vitest';
import { runnableChecks } from '../../../src-main/agent/checks/runnable-checks.ts';
import { isActive, isPrivateDefinition, type StoredCheck } from '../../../src-main/agent/store/checks.ts';
import type { CheckDefinition, WireCheck } from '../../../src-main/agent/wire/schemas.ts';
import { wireCheck } from '../../support/wire-fixtures.ts';

const stored = (check: WireCheck): StoredCheck => ({
  check,
  privateDefinition: isPrivateDefinition(check),
  active: isActive(check),
});

describe('runnableChecks', () => {
  const checks = [
    stored(wireCheck({ guid: 'plain', url: 'http://127.0.0.1:1/', interval_sec: 30, result_detail_max_chars: 50 })),
    stored(wireCheck({ guid: 'off', enabled: false })),
    stored(wireCheck({ guid: 'priv', url: '', match_string: '', interval_sec: 15 })),
    stored(wireCheck({ guid: 'priv-missing', url: '' })),
    stored(wireCheck({ guid: 'bad-interval', interval_sec: 0 })),
  ];
  const local = new Map<string, CheckDefinition>([
    ['priv', { url: 'https://intranet.example/health', match_string: 'ok', timeout_sec: 3 }],
    ['stray', { url: 'https://x.example/', match_string: '' }],
  ]);

  it("carries monitor_count and monitor_rank to the scheduler, also for a private check (scheduling is the server's)", () => {
    const set = runnableChecks(
      [
        stored(wireCheck({ guid: 'shared', url: 'http://127.0.0.1:1/', monitor_count: 3, monitor_rank: 2 })),
        stored(wireCheck({ guid: 'priv', url: '', match_string: '', monitor_count: 2, monitor_rank: 1 })),
        stored(wireCheck({ guid: 'alone', url: 'http://127.0.0.1:1/' })),
      ],
      local,
    );
    expect(set.runnable.get('shared')).toMatchObject({ monitorCount: 3, monitorRank: 2 });
    expect(set.runnable.get('priv')).toMatchObject({ monitorCount: 2, monitorRank: 1 });
    expect(set.runnable.get('alone')).toMatchObject({ monitorCount: undefined, monitorRank: undefined });
  });

  it('runs plain checks with the server definition and private ones with the local entry', () => {
    const set = runnableChecks(checks, local);
    expect([...set.runnable.keys()].sort()).toEqual(['plain', 'priv']);
    expect(set.runnable.get('plain')).toMatchObject({
      intervalMs: 30_000,
      maxChars: 50,
      definition: { url: 'http://127.0.0.1:1/' },
    });
    const priv = set.runnable.get('priv');
    // Definition from the file, scheduling from the server.
    expect(priv).toMatchObject({
      intervalMs: 15_000,
      definition: { url: 'https://intranet.example/health', timeout_sec: 3 },
    });
    expect(priv?.privateSecrets).toContain('intranet.example');
  });

  it('lists private checks without an entry, entries the server lacks, and unschedulable checks', () => {
    const set = runnableChecks(checks, local);
    expect(set.missingPrivate).toEqual(['priv-missing']);
    expect(set.unknownPrivate).toEqual(['stray']);
    expect(set.unschedulable).toEqual([{ guid: 'bad-interval', reason: 'interval_sec is 0; it must be at least 1' }]);
  });
});
