import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { summarizeAgent, type AgentCondition } from '../../src-main/ipc/agent-summary.ts';
import { baseSnapshot, enrolledSnapshot } from '../electron/support.ts';

let base: AgentSnapshot;
beforeAll(async () => {
  base = await baseSnapshot();
});

const minutesAgo = (taken: string, minutes: number): string =>
  new Date(Date.parse(taken) - minutes * 60_000).toISOString();

interface Case {
  name: string;
  snapshot: () => AgentSnapshot;
  condition: AgentCondition;
  tooltip: string;
  menu: string;
  pill: string;
}

const cases: Case[] = [
  {
    name: 'not enrolled',
    snapshot: () => base,
    condition: 'not-enrolled',
    tooltip: 'Uptime Agent: not enrolled. Open it to enroll this computer.',
    menu: 'Not enrolled: open the app to enroll',
    pill: 'Not enrolled',
  },
  {
    name: 'all passing',
    snapshot: () => enrolledSnapshot(base),
    condition: 'ok',
    tooltip: '12 checks · 0 unsent',
    menu: 'All 12 checks passing',
    pill: 'Online',
  },
  {
    name: 'one down: red, the count first',
    snapshot: () => enrolledSnapshot(base, { counts: { up: 11, down: 1 } }),
    condition: 'error',
    tooltip: '1 down · 12 checks · 0 unsent',
    menu: '1 of 12 checks down',
    pill: '1 down',
  },
  {
    name: 'two down while offline',
    snapshot: () =>
      enrolledSnapshot(base, {
        counts: { up: 10, down: 2 },
        connectivity: { online: false, offlineSince: base.takenAt },
      }),
    condition: 'error',
    tooltip: '2 down · 12 checks · 0 unsent · offline',
    menu: '2 of 12 checks down · Offline: results are kept until it is back',
    pill: '2 down · offline',
  },
  {
    name: 'offline',
    snapshot: () => enrolledSnapshot(base, { connectivity: { online: false, offlineSince: base.takenAt } }),
    condition: 'warning',
    tooltip: '12 checks · 0 unsent · offline',
    menu: 'Offline: results are kept until it is back',
    pill: 'Offline',
  },
  {
    name: 'unsent results waiting a short while: still ok',
    snapshot: () =>
      enrolledSnapshot(base, { outbox: { ...base.outbox, unsent: 40, oldestRanAt: minutesAgo(base.takenAt, 1) } }),
    condition: 'ok',
    tooltip: '12 checks · 40 unsent',
    menu: 'All 12 checks passing',
    pill: 'Online',
  },
  {
    name: 'unsent backlog older than the threshold',
    snapshot: () =>
      enrolledSnapshot(base, { outbox: { ...base.outbox, unsent: 900, oldestRanAt: minutesAgo(base.takenAt, 3) } }),
    condition: 'warning',
    tooltip: '12 checks · 900 unsent',
    menu: 'All 12 checks passing',
    pill: 'Needs attention',
  },
  {
    name: 'private checks without definitions',
    snapshot: () =>
      enrolledSnapshot(base, {
        problems: [{ kind: 'private-missing', checks: [], hasFile: true, action: 'private-definitions' }],
      }),
    condition: 'warning',
    tooltip: '12 checks · 0 unsent',
    menu: 'All 12 checks passing',
    pill: 'Needs attention',
  },
  {
    name: 'key rejected',
    snapshot: () => enrolledSnapshot(base, { auth: 'key-rejected', outbox: { ...base.outbox, unsent: 3 } }),
    condition: 'error',
    tooltip: '12 checks · 3 unsent · key rejected: enroll again',
    menu: 'API key rejected: enroll again',
    pill: 'Key refused by the server',
  },
  {
    name: 'stored key damaged',
    snapshot: () => enrolledSnapshot(base, { auth: 'key-damaged' }),
    condition: 'error',
    tooltip: '12 checks · 0 unsent · stored key damaged: enroll again',
    menu: 'The stored API key is damaged: enroll again',
    pill: 'Stored key damaged',
  },
  {
    name: 'monitor disabled, even while paused',
    snapshot: () => enrolledSnapshot(base, { auth: 'monitor-disabled', paused: true }),
    condition: 'error',
    tooltip: '12 checks · 0 unsent · monitor disabled on the server · paused',
    menu: 'Monitor disabled on the server',
    pill: 'Disabled on the server',
  },
  {
    name: 'paused, with failures from before',
    snapshot: () => enrolledSnapshot(base, { paused: true, counts: { down: 2 } }),
    condition: 'paused',
    tooltip: '2 down · 12 checks · 0 unsent · paused',
    menu: 'Checks paused (12)',
    pill: 'Paused',
  },
  {
    name: 'one check, no plural',
    snapshot: () => enrolledSnapshot(base, { counts: { total: 1, up: 1 } }),
    condition: 'ok',
    tooltip: '1 check · 0 unsent',
    menu: 'All 1 check passing',
    pill: 'Online',
  },
  {
    name: 'paused and offline: the same words in the pill, the menu and the tooltip',
    snapshot: () =>
      enrolledSnapshot(base, { paused: true, connectivity: { online: false, offlineSince: base.takenAt } }),
    condition: 'paused',
    tooltip: '12 checks · 0 unsent · offline · paused',
    menu: 'Checks paused (12) · Offline: results are kept until it is back',
    pill: 'Paused · offline',
  },
];

describe('the agent summed up for the tray and the status pill', () => {
  it.each(cases)('$name', ({ snapshot, condition, tooltip, menu, pill }) => {
    expect(summarizeAgent(snapshot())).toMatchObject({ condition, tooltip, line: menu, label: pill });
  });
});
