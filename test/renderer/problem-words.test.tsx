// @vitest-environment happy-dom
// Every kind of problem the agent raises is shown in the window in words, none of them machine
// text: the problems come from the agent's own problemsOf for a state that has them all, and the
// list of kinds is a Record, so a new kind fails here until it is covered.
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { problemsOf, type Problem, type ProblemKind } from '../../src-main/agent/read/problems.ts';
import { problemActionLabel, problemText } from '../../src-main/ipc/problem-words.ts';
import { initialState } from '../../src-main/agent/live/state.ts';
import { OverviewView } from '../../src-renderer/views/OverviewView.tsx';
import { createFakeBridge, ok } from './fake-bridge.ts';
import { snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';

afterEach(cleanup);

const machineText = /\bE[A-Z]{4,}\b|--[a-z][a-z-]+|\/api\/|\d{4}-\d\d-\d\dT|SSL routines|UND_ERR|undefined|\[object/;

/** Each kind, and a word its sentence holds. */
const kinds: Record<ProblemKind, RegExp> = {
  'key-rejected': /refused this monitor’s API key/,
  'monitor-disabled': /disabled this monitor/,
  'key-damaged': /damaged/,
  'clock-skew': /5 minutes behind/,
  'server-connection': /certificate is not trusted/,
  'private-missing': /no local definition/,
  'private-file': /not valid JSON/,
  'rejected-results': /refused 2 results/,
  'results-dropped': /3 results were dropped/,
  'store-problem': /disk .* full/,
  'results-aside': /monitor q1w2e3r4t5y6/,
  overloaded: /keep up/,
  'private-invalid': /entry in the definitions file has an error/,
  'settings-problem': /settings file/,
  'local-resources': /ran out of open files/,
};

/** Each kind as data only, and the words it must come out as (one and many where counts matter). */
const said: [Problem, RegExp][] = [
  [{ kind: 'key-rejected', action: 'enroll' }, /refused this monitor’s API key: it was reset/],
  [{ kind: 'monitor-disabled', action: 'none' }, /^The server has disabled this monitor, so checks are paused/],
  [{ kind: 'key-damaged', action: 'enroll' }, /^The stored API key is damaged/],
  [{ kind: 'clock-skew', skewSec: 300, action: 'none' }, /clock is 5 minutes behind the server's/],
  [{ kind: 'clock-skew', skewSec: -45, action: 'none' }, /clock is 45 seconds ahead of the server's/],
  [
    { kind: 'server-connection', failure: { kind: 'network', cause: 'proxy' }, action: 'none' },
    /^The server cannot be reached with the current network settings\.$/,
  ],
  [
    { kind: 'private-missing', checks: [{ guid: 'g', name: 'A' }], hasFile: true, action: 'private-definitions' },
    /^1 private check has no local definition and is not run\.$/,
  ],
  [
    { kind: 'private-invalid', checks: [{ guid: 'g', name: 'Payroll' }], action: 'private-definitions' },
    /^The private check Payroll is not run: its entry/,
  ],
  [
    {
      kind: 'private-invalid',
      checks: [
        { guid: 'g', name: 'A' },
        { guid: 'h', name: 'B' },
      ],
      action: 'private-definitions',
    },
    /^2 private checks are not run: their entries .* have errors/,
  ],
  [
    { kind: 'private-file', detail: 'the file is not valid JSON (line 3)', action: 'none' },
    /^The file is not valid JSON \(line 3\)$/,
  ],
  [{ kind: 'rejected-results', count: 1, action: 'unsent' }, /^The server refused 1 result; they are set aside/],
  [{ kind: 'results-dropped', count: 1, action: 'unsent' }, /^1 result was dropped/],
  [
    { kind: 'store-problem', fault: 'disk-full', folder: '/data', waiting: 1, dropped: 0, action: 'none' },
    /^The disk holding \/data is full: 1 result is waiting in memory; free space\.$/,
  ],
  [
    { kind: 'store-problem', fault: 'write-failed', folder: '/data', waiting: 3, dropped: 2, action: 'none' },
    /^Results cannot be saved in \/data: 3 results are waiting in memory \(2 older ones dropped\); check the disk/,
  ],
  [
    { kind: 'results-aside', monitorId: 'm1', count: 1, action: 'unsent' },
    /^1 unsent result of monitor m1 .* Reclaim monitor m1/,
  ],
  [{ kind: 'overloaded', skipped: 1, action: 'none' }, /cannot keep up: 1 run was skipped in the last minute/],
  [
    { kind: 'settings-problem', detail: 'the settings file could not be read', action: 'none' },
    /^The settings file could not be read\.$/,
  ],
  [
    { kind: 'local-resources', fault: 'memory', runs: 1, action: 'none' },
    /ran out of memory: 1 check run could not be made/,
  ],
];

it('says each kind from its data alone, without machine text', () => {
  expect([...new Set(said.map(([p]) => p.kind))].sort()).toEqual(Object.keys(kinds).sort());
  for (const [problem, words] of said) {
    const text = problemText(problem);
    expect(text, problem.kind).toMatch(words);
    expect(text, problem.kind).not.toMatch(machineText);
    expect(JSON.stringify(problem), problem.kind).not.toMatch(/"message"/);
  }
  expect(
    problemActionLabel({ kind: 'private-missing', checks: [], hasFile: false, action: 'private-definitions' }),
  ).toBe('Choose a definitions file');
});

it('finds machine text where there is some', () => {
  for (const text of ['connect ECONNREFUSED 127.0.0.1:443', 'run with --private-checks', 'since 2026-11-21T10:00:00Z'])
    expect(text).toMatch(machineText);
});

it('every problem kind is said in words', async () => {
  const state = {
    ...initialState(new Date('2026-11-21T10:00:00Z'), 3),
    clockSkewSec: 300,
    storeProblem: 'the disk holding /data is full: 5 results are waiting in memory; free space',
    storeFault: { kind: 'disk-full' as const, folder: '/data', dropped: 0 },
    unsavedResults: 5,
    connectionProblem: { kind: 'network' as const, cause: 'untrusted-ca' as const },
    load: {
      overloaded: true,
      executed: 6,
      skippedOverlap: 3,
      skippedBacklog: 1,
      startedAfterWait: 2,
      recentDue: 10,
      recentSkipped: 4,
      recentBacklog: 1,
      recentOverlap: 3,
      lagP99Ms: 40,
      runCap: 256,
    },
    localFault: { fault: 'descriptors' as const, since: '2026-11-21T09:59:00.000Z', runs: 7 },
  };
  const priv = {
    file: '/home/me/private.json',
    fileError: 'the file is not valid JSON (line 3); the definitions read before stay in force',
    defined: [],
    matched: [],
    missing: [{ guid: 'g1', name: 'Intranet' }],
    invalid: [{ guid: 'g2', name: 'Payroll' }],
    unknown: [],
    problems: [],
  };
  const outbox = { dropped: 3, rejectedCount: 2, aside: [{ monitorId: 'q1w2e3r4t5y6', count: 4 }] };
  const problems = [
    ...problemsOf(
      { ...state, auth: 'key-rejected' },
      outbox,
      priv,
      'The settings file could not be read whole; the egress policy is strict until you save the settings again.',
    ),
    ...problemsOf({ ...state, auth: 'monitor-disabled' }, { dropped: 0, rejectedCount: 0 }, { ...priv, missing: [] }),
    ...problemsOf({ ...state, auth: 'key-damaged' }, { dropped: 0, rejectedCount: 0 }, { ...priv, missing: [] }),
  ];
  const unique = problems.filter((p, i) => problems.findIndex((q) => q.kind === p.kind) === i);
  expect(unique.map((p) => p.kind).sort()).toEqual(Object.keys(kinds).sort());

  renderView(<OverviewView />, createFakeBridge({ 'agent:snapshot': () => ok(snapshotOf({ problems: unique })) }));
  const list = await screen.findByRole('region', { name: 'Problems of the agent' });
  const items = within(list)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
  for (const [kind, words] of Object.entries(kinds)) {
    const item = items.find((text) => words.test(text));
    expect(item, kind).toBeDefined();
    expect(item).not.toMatch(machineText);
  }
});
