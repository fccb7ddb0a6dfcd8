// The checks the tray's menu names: those down first (what a person opens the menu for), then
// those flapping that are not down right now, each once, the list bounded with "and N more".
import { describe, expect, it } from 'vitest';
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { trayCheckItems } from '../../src-main/electron/tray-checks.ts';
import { summarizeAgent } from '../../src-main/ipc/agent-summary.ts';
import { checkOf, snapshotOf } from '../renderer/fixtures.ts';

const flapping = { since: '2026-11-24T10:00:00.000Z', changes: 5 };

function withChecks(checks: { name: string; health: 'up' | 'down'; flapping?: boolean }[]): AgentSnapshot {
  return snapshotOf({
    checks: checks.map((c) =>
      checkOf({ guid: `${c.name}-guid`, name: c.name, health: c.health, ...(c.flapping === true ? { flapping } : {}) }),
    ),
  });
}

describe("the tray's check items", () => {
  it('names a flapping check that is up right now, after the down ones, and a flapping down one once', () => {
    const items = trayCheckItems(
      withChecks([
        { name: 'Shop', health: 'up', flapping: true },
        { name: 'Intranet', health: 'down' },
        { name: 'Mail', health: 'down', flapping: true },
        { name: 'Wiki', health: 'up' },
      ]),
    );
    expect(items.map((i) => i.label)).toEqual([
      'Intranet is down',
      'Mail is down (keeps going down and up)',
      'Shop keeps going down and up',
    ]);
    expect(items.map((i) => i.guid)).toEqual(['Intranet-guid', 'Mail-guid', 'Shop-guid']);
  });

  it('ends a long list in "and N more" that opens the checks', () => {
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `C${i}`, health: 'down' as const }));
    const items = trayCheckItems(withChecks(many));
    expect(items).toHaveLength(9);
    expect(items.at(-1)).toEqual({ label: 'and 3 more…' });
  });

  it('the tooltip counts the flapping checks beside the down ones', () => {
    const s = withChecks([
      { name: 'Shop', health: 'up', flapping: true },
      { name: 'Intranet', health: 'down' },
    ]);
    const summary = summarizeAgent({ ...s, counts: { ...s.counts, total: 2, up: 1, down: 1 } });
    expect(summary.tooltip).toMatch(/^1 down · 1 flapping · 2 checks/);
  });
});
