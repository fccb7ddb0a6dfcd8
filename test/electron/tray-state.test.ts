import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { panelShade, trayIconFile, trayState, trayTooltip, type TrayState } from '../../src-main/electron/tray-state.ts';
import { menuStatusLine } from '../../src-main/electron/tray.ts';
import { baseSnapshot, enrolledSnapshot } from './support.ts';

let base: AgentSnapshot;
beforeAll(async () => {
  base = await baseSnapshot();
});

const minutesAgo = (taken: string, minutes: number): string => new Date(Date.parse(taken) - minutes * 60_000).toISOString();

interface Case {
  name: string;
  snapshot: () => AgentSnapshot;
  state: TrayState;
  tooltip: string;
  menu: string;
}

const cases: Case[] = [
  {
    name: 'not enrolled',
    snapshot: () => base,
    state: 'not-enrolled',
    tooltip: 'Uptime Agent: not enrolled. Open it to enroll this computer.',
    menu: 'Not enrolled: open the app to enroll',
  },
  {
    name: 'all passing',
    snapshot: () => enrolledSnapshot(base),
    state: 'ok',
    tooltip: '12 checks · 0 failing · 0 unsent',
    menu: 'All 12 checks passing',
  },
  {
    name: 'one failing',
    snapshot: () => enrolledSnapshot(base, { counts: { up: 11, down: 1 } }),
    state: 'warning',
    tooltip: '12 checks · 1 failing · 0 unsent',
    menu: '1 of 12 checks failing',
  },
  {
    name: 'offline',
    snapshot: () => enrolledSnapshot(base, { connectivity: { online: false, offlineSince: base.takenAt } }),
    state: 'warning',
    tooltip: '12 checks · 0 failing · 0 unsent · offline',
    menu: 'Offline: results are kept until it is back',
  },
  {
    name: 'unsent results waiting a short while: still ok',
    snapshot: () => enrolledSnapshot(base, { outbox: { ...base.outbox, unsent: 40, oldestRanAt: minutesAgo(base.takenAt, 1) } }),
    state: 'ok',
    tooltip: '12 checks · 0 failing · 40 unsent',
    menu: 'All 12 checks passing',
  },
  {
    name: 'unsent backlog older than the threshold',
    snapshot: () => enrolledSnapshot(base, { outbox: { ...base.outbox, unsent: 900, oldestRanAt: minutesAgo(base.takenAt, 6) } }),
    state: 'warning',
    tooltip: '12 checks · 0 failing · 900 unsent',
    menu: 'All 12 checks passing',
  },
  {
    name: 'private checks without definitions',
    snapshot: () => enrolledSnapshot(base, { problems: [{ kind: 'private-missing', message: 'x', action: 'private-definitions', actionLabel: 'y' }] }),
    state: 'warning',
    tooltip: '12 checks · 0 failing · 0 unsent',
    menu: 'All 12 checks passing',
  },
  {
    name: 'key rejected',
    snapshot: () => enrolledSnapshot(base, { auth: 'key-rejected', outbox: { ...base.outbox, unsent: 3 } }),
    state: 'error',
    tooltip: '12 checks · 0 failing · 3 unsent · key rejected: enroll again',
    menu: 'API key rejected: enroll again',
  },
  {
    name: 'monitor disabled, even while paused',
    snapshot: () => enrolledSnapshot(base, { auth: 'monitor-disabled', paused: true }),
    state: 'error',
    tooltip: '12 checks · 0 failing · 0 unsent · monitor disabled on the server · paused',
    menu: 'Monitor disabled on the server',
  },
  {
    name: 'paused, with failures from before',
    snapshot: () => enrolledSnapshot(base, { paused: true, counts: { down: 2 } }),
    state: 'paused',
    tooltip: '12 checks · 2 failing · 0 unsent · paused',
    menu: 'Checks paused (12)',
  },
  {
    name: 'one check, no plural',
    snapshot: () => enrolledSnapshot(base, { counts: { total: 1, up: 1 } }),
    state: 'ok',
    tooltip: '1 check · 0 failing · 0 unsent',
    menu: 'All 1 check passing',
  },
];

describe('tray state from the snapshot', () => {
  it.each(cases)('$name', ({ snapshot, state, tooltip, menu }) => {
    const s = snapshot();
    expect(trayState(s)).toBe(state);
    expect(trayTooltip(s)).toBe(tooltip);
    expect(menuStatusLine(s)).toBe(menu);
  });
});

describe('tray icon files', () => {
  it.each([
    { platform: 'darwin', dark: true, state: 'ok', file: 'okTemplate.png' },
    { platform: 'darwin', dark: false, state: 'error', file: 'errorTemplate.png' },
    { platform: 'linux', dark: false, state: 'warning', file: 'warning-dark.png' },
    { platform: 'win32', dark: false, state: 'paused', file: 'paused-light.png' },
    { platform: 'win32', dark: true, state: 'not-enrolled', file: 'not-enrolled-dark.png' },
  ] as const)('$platform dark=$dark $state → $file', ({ platform, dark, state, file }) => {
    expect(trayIconFile(state, platform, panelShade(platform, dark))).toBe(file);
  });
});
