import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { clockTime, summarizeAgent, type AgentCondition } from '../../src-main/ipc/agent-summary.ts';
import { baseSnapshot, enrolledSnapshot } from '../electron/support.ts';

let base: AgentSnapshot;
beforeAll(async () => {
  base = await baseSnapshot();
});

const minutesAgo = (taken: string, minutes: number): string =>
  new Date(Date.parse(taken) - minutes * 60_000).toISOString();

const unreachableSince = (since: string): AgentSnapshot['connection'] => ({
  state: 'unreachable',
  since,
  lastFailure: { kind: 'network', cause: 'refused' },
});

/** The local time the summary shows ("14:02"), never the ISO timestamp. */
const at = (iso: string): string => clockTime(iso, base.takenAt);

interface Case {
  name: string;
  snapshot: () => AgentSnapshot;
  condition: AgentCondition;
  /** A function where the text holds the local time of day the snapshot gives (known once it is built). */
  tooltip: Text;
  menu: Text;
  pill: Text;
}

type Text = string | (() => string);
const textOf = (t: Text): string => (typeof t === 'string' ? t : t());

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
    name: 'disk full: results are not saved, red, whatever else holds but a down check',
    snapshot: () =>
      enrolledSnapshot(base, {
        problems: [
          { kind: 'store-problem', fault: 'disk-full', folder: '/data', waiting: 40, dropped: 0, action: 'none' },
        ],
      }),
    condition: 'error',
    tooltip: '12 checks · 0 unsent · disk full: results not saved',
    menu: 'The disk is full: results wait in memory until there is space',
    pill: 'Disk full: results not saved',
  },
  {
    name: 'store not writable',
    snapshot: () =>
      enrolledSnapshot(base, {
        problems: [
          { kind: 'store-problem', fault: 'write-failed', folder: '/data', waiting: 2, dropped: 0, action: 'none' },
        ],
      }),
    condition: 'error',
    tooltip: '12 checks · 0 unsent · results not saved',
    menu: 'Results cannot be saved: they wait in memory until the folder can be written',
    pill: 'Results not saved',
  },
  {
    name: 'a settings file that could not be read wholly needs attention',
    snapshot: () => enrolledSnapshot(base, { problems: [{ kind: 'settings-problem', detail: 'x', action: 'none' }] }),
    condition: 'warning',
    tooltip: '12 checks · 0 unsent',
    menu: 'All 12 checks passing',
    pill: 'Needs attention',
  },
  {
    name: 'key rejected',
    snapshot: () => enrolledSnapshot(base, { auth: 'key-rejected', outbox: { ...base.outbox, unsent: 3 } }),
    condition: 'error',
    tooltip: '12 checks · 3 unsent · key not accepted: enroll again',
    menu: 'The server no longer accepts the API key: enroll again',
    pill: 'Key not accepted by the server',
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
    menu: 'Monitor disabled on the server: enable it there',
    pill: 'Monitor disabled on the server',
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
  {
    name: 'the server refusing connections while this machine is online: the headline, never "Online"',
    snapshot: () => enrolledSnapshot(base, { connection: unreachableSince(minutesAgo(base.takenAt, 4)) }),
    condition: 'warning',
    tooltip: () => `12 checks · 0 unsent · server unreachable since ${at(minutesAgo(base.takenAt, 4))}`,
    menu: () => `Server unreachable since ${at(minutesAgo(base.takenAt, 4))}: results are kept until it answers`,
    pill: () => `Server unreachable since ${at(minutesAgo(base.takenAt, 4))}`,
  },
  {
    name: 'one down while the server is unreachable: red, and says both',
    snapshot: () => enrolledSnapshot(base, { counts: { up: 11, down: 1 }, connection: unreachableSince(base.takenAt) }),
    condition: 'error',
    tooltip: () => `1 down · 12 checks · 0 unsent · server unreachable since ${at(base.takenAt)}`,
    menu: () => `1 of 12 checks down · Server unreachable since ${at(base.takenAt)}: results are kept until it answers`,
    pill: '1 down · server unreachable',
  },
  {
    name: 'paused while the server is unreachable',
    snapshot: () => enrolledSnapshot(base, { paused: true, connection: unreachableSince(base.takenAt) }),
    condition: 'paused',
    tooltip: () => `12 checks · 0 unsent · server unreachable since ${at(base.takenAt)} · paused`,
    menu: () => `Checks paused (12) · Server unreachable since ${at(base.takenAt)}: results are kept until it answers`,
    pill: 'Paused · server unreachable',
  },
  {
    name: 'offline: the machine network is the reason, so the server being unreachable is not repeated',
    snapshot: () =>
      enrolledSnapshot(base, {
        connectivity: { online: false, offlineSince: base.takenAt },
        connection: unreachableSince(base.takenAt),
      }),
    condition: 'warning',
    tooltip: '12 checks · 0 unsent · offline',
    menu: 'Offline: results are kept until it is back',
    pill: 'Offline',
  },
  {
    name: 'the connection says rejected: the key is not accepted, whatever the older auth field says',
    snapshot: () => enrolledSnapshot(base, { connection: { state: 'rejected', since: base.takenAt } }),
    condition: 'error',
    tooltip: '12 checks · 0 unsent · key not accepted: enroll again',
    menu: 'The server no longer accepts the API key: enroll again',
    pill: 'Key not accepted by the server',
  },
  {
    name: 'the connection says disabled',
    snapshot: () => enrolledSnapshot(base, { connection: { state: 'disabled', since: base.takenAt } }),
    condition: 'error',
    tooltip: '12 checks · 0 unsent · monitor disabled on the server',
    menu: 'Monitor disabled on the server: enable it there',
    pill: 'Monitor disabled on the server',
  },
  {
    name: 'no call has ended yet: connecting, not "Online"',
    snapshot: () => enrolledSnapshot(base, { connection: { state: 'connecting' } }),
    condition: 'ok',
    tooltip: '12 checks · 0 unsent',
    menu: 'Connecting to the server…',
    pill: 'Connecting to the server…',
  },
];

describe('the agent summed up for the tray and the status pill', () => {
  it.each(cases)('$name', ({ snapshot, condition, tooltip, menu, pill }) => {
    expect(summarizeAgent(snapshot())).toMatchObject({
      condition,
      tooltip: textOf(tooltip),
      line: textOf(menu),
      label: textOf(pill),
    });
  });
  it('says the time the server went away as a local time of day, not a timestamp', () => {
    const { label } = summarizeAgent(enrolledSnapshot(base, { connection: unreachableSince(base.takenAt) }));
    expect(label).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(label).toMatch(/^Server unreachable since \d{1,2}[:.]\d\d/);
  });
});
