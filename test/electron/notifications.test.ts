// What the tray tells, and when: the names of a group, check transitions through the flap window,
// and problems from snapshots (the planner, fed by hand; the wiring to a real agent is in
// notifications.int.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentSnapshot, Problem } from '../../src-main/ipc/contract.ts';
import { problemText } from '../../src-main/ipc/problem-words.ts';
import { createNotificationPlanner, listNames } from '../../src-main/electron/notification-planner.ts';
import { baseSnapshot, down, enrolledSnapshot, recovered } from './support.ts';

const options = { flapWindowMs: 60_000, namesInGroup: 3 };

describe('listNames', () => {
  it.each([
    { names: ['A'], text: 'A' },
    { names: ['A', 'B'], text: 'A and B' },
    { names: ['A', 'B', 'C'], text: 'A, B and C' },
    { names: ['A', 'B', 'C', 'D', 'E'], text: 'A, B, C and 2 more' },
  ])('$text', ({ names, text }) => expect(listNames(names, 3)).toBe(text));
});

describe('check transitions', () => {
  it('tells one check going down, with its error, and a click opens that check', () => {
    const notes = createNotificationPlanner(options).transitions([down('Intranet')], 0);
    expect(notes).toEqual([
      {
        title: 'Intranet is down',
        body: 'connect ECONNREFUSED (Intranet) Open Uptime Agent for its recent results.',
        navigate: { view: 'checks', guid: 'g-Intranet' },
      },
    ]);
  });

  it('groups many changes of one batch into one notification per kind', () => {
    const notes = createNotificationPlanner(options).transitions(
      [down('A'), down('B'), down('C'), down('D'), down('E'), recovered('F'), recovered('G')],
      0,
    );
    expect(notes).toEqual([
      {
        title: '5 checks went down',
        body: 'A, B, C and 2 more. Open Uptime Agent to see why.',
        navigate: { view: 'checks' },
      },
      { title: '2 checks recovered', body: 'F and G pass again.', navigate: { view: 'checks' } },
    ]);
  });

  it('keeps a flapping check quiet within the window, and then says nothing when it ended as told', () => {
    const planner = createNotificationPlanner(options);
    expect(planner.transitions([down('A', 0)], 0)).toHaveLength(1);
    expect(planner.transitions([recovered('A')], 10_000)).toEqual([]);
    expect(planner.transitions([down('A')], 20_000)).toEqual([]);
    expect(planner.nextDueAt()).toBe(60_000);
    expect(planner.due(59_999)).toEqual([]);
    expect(planner.due(60_000)).toEqual([]);
    expect(planner.nextDueAt()).toBeUndefined();
  });

  it('tells the latest state once the window ends when it differs from what was told', () => {
    const planner = createNotificationPlanner(options);
    planner.transitions([down('A')], 0);
    planner.transitions([recovered('A')], 5_000);
    expect(planner.due(60_000)).toEqual([
      { title: 'A recovered', body: 'The check passes again.', navigate: { view: 'checks', guid: 'g-A' } },
    ]);
    // That was a notification too: the next change within a minute of it waits again.
    expect(planner.transitions([down('A')], 61_000)).toEqual([]);
    expect(planner.transitions([down('B')], 61_000)).toHaveLength(1);
  });

  it('tells a change at once when the check was quiet for the whole window', () => {
    const planner = createNotificationPlanner(options);
    planner.transitions([down('A')], 0);
    expect(planner.transitions([recovered('A')], 60_000)).toHaveLength(1);
  });

  it('does not repeat one check going down and up inside a single batch', () => {
    const planner = createNotificationPlanner(options);
    expect(planner.transitions([down('A'), recovered('A')], 0).map((n) => n.title)).toEqual(['A is down']);
    expect(planner.due(60_000).map((n) => n.title)).toEqual(['A recovered']);
  });
});

describe('problems from snapshots', () => {
  let base: AgentSnapshot;
  beforeAll(async () => {
    base = await baseSnapshot();
  });
  const rejected: Problem = { kind: 'key-rejected', action: 'enroll' };
  const disabled: Problem = { kind: 'monitor-disabled', action: 'none' };
  const fileProblem = (detail: string): Problem => ({ kind: 'private-file', detail, action: 'private-definitions' });
  const withProblems = (...problems: Problem[]) => enrolledSnapshot(base, { problems });

  it('tells each once per new occurrence', () => {
    const planner = createNotificationPlanner(options);
    expect(planner.snapshot(withProblems(rejected))).toEqual([
      { title: 'The server refused this monitor’s API key', body: problemText(rejected), navigate: { view: 'enroll' } },
    ]);
    expect(planner.snapshot(withProblems(rejected))).toEqual([]);
    expect(planner.snapshot(withProblems())).toEqual([]);
    expect(planner.snapshot(withProblems(rejected))).toHaveLength(1);
  });

  it('tells the monitor disabled and each new problem of the definitions file, not the others', () => {
    const planner = createNotificationPlanner(options);
    const notes = planner.snapshot(
      withProblems(disabled, fileProblem('the file is not valid JSON (line 3)'), {
        kind: 'rejected-results',
        count: 2,
        action: 'unsent',
      }),
    );
    expect(notes.map((n) => [n.title, n.navigate.view])).toEqual([
      ['This monitor was disabled on the server', 'overview'],
      ['The private definitions file has a problem', 'private'],
    ]);
    expect(
      planner.snapshot(withProblems(disabled, fileProblem('the check on line 4 has no url'))).map((n) => n.body),
    ).toEqual(['The check on line 4 has no url.']);
  });
});
