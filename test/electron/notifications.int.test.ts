// Notifications: the planner's rules with explicit times, then the wiring to a real agent.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import type { AgentSnapshot, CheckTransition, EventPayloads, Problem } from '../../src-main/ipc/contract.ts';
import { createEventHub, type EventHub, type EventSink } from '../../src-main/ipc/events.ts';
import { createNotificationPlanner, listNames } from '../../src-main/electron/notification-planner.ts';
import { setupNotifications } from '../../src-main/electron/notifications.ts';
import { closedPort } from '../targets/index.ts';
import { enrolledAgent, eventually, type Harness } from '../support/agent-harness.ts';
import { FakeNotification } from './fake-electron.ts';
import { baseSnapshot, enrolledSnapshot } from './support.ts';

const down = (name: string, at = 0): CheckTransition => ({
  guid: `g-${name}`,
  name,
  kind: 'down',
  error: `connect ECONNREFUSED (${name})`,
  at: new Date(at).toISOString(),
});
const recovered = (name: string, at = 0): CheckTransition => ({
  guid: `g-${name}`,
  name,
  kind: 'recovered',
  at: new Date(at).toISOString(),
});
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
  const problem = (kind: Problem['kind'], message: string): Problem => ({
    kind,
    message,
    action: 'none',
    actionLabel: '',
  });
  const withProblems = (...problems: Problem[]) => enrolledSnapshot(base, { problems });

  it('tells each once per new occurrence', () => {
    const planner = createNotificationPlanner(options);
    const rejected = problem('key-rejected', 'The server refused this monitor’s API key: it was reset.');
    expect(planner.snapshot(withProblems(rejected))).toEqual([
      { title: 'The server refused this monitor’s API key', body: rejected.message, navigate: { view: 'enroll' } },
    ]);
    expect(planner.snapshot(withProblems(rejected))).toEqual([]);
    expect(planner.snapshot(withProblems())).toEqual([]);
    expect(planner.snapshot(withProblems(rejected))).toHaveLength(1);
  });

  it('tells the monitor disabled and each new problem of the definitions file, not the others', () => {
    const planner = createNotificationPlanner(options);
    const notes = planner.snapshot(
      withProblems(
        problem('monitor-disabled', 'disabled'),
        problem('private-file', 'checks.json: line 3: unexpected token'),
        problem('rejected-results', 'refused 2'),
      ),
    );
    expect(notes.map((n) => [n.title, n.navigate.view])).toEqual([
      ['This monitor was disabled on the server', 'overview'],
      ['The private definitions file has a problem', 'private'],
    ]);
    expect(
      planner
        .snapshot(
          withProblems(
            problem('monitor-disabled', 'disabled'),
            problem('private-file', 'checks.json: checks[0].url: required'),
          ),
        )
        .map((n) => n.body),
    ).toEqual(['checks.json: checks[0].url: required']);
  });
});

describe('wiring', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    FakeNotification.shown = [];
  });

  function wire(hub: EventHub, enabled: () => boolean, flapWindowMs = 60_000) {
    const shown: (EventPayloads['app:navigate'] | undefined)[] = [];
    const dispose = setupNotifications({
      hub,
      createNotification: (o) => new FakeNotification(o),
      enabled,
      window: { show: (navigate) => shown.push(navigate) },
      log: silentLogger,
      options: { flapWindowMs, namesInGroup: 3 },
    });
    cleanups.push(dispose);
    return shown;
  }

  async function harness(): Promise<Harness> {
    const h = await enrolledAgent();
    cleanups.push(() => h.close());
    return h;
  }

  it('notifies a real check going down; the click opens the window on it', async () => {
    const h = await harness();
    const hub = createEventHub(h.agent, { snapshotThrottleMs: 10, transitionWindowMs: 20 });
    cleanups.push(() => hub.close());
    const shown = wire(hub, () => true);
    const check = h.server.admin.createCheck({
      name: 'Intranet',
      url: `http://127.0.0.1:${await closedPort()}/`,
      orgId: h.orgId,
    });
    h.server.admin.assign(check.guid, h.monitorId);
    const note = await eventually(
      () => FakeNotification.shown.find((n) => n.options.title === 'Intranet is down'),
      10_000,
      'the notification',
    );
    expect(note.options.body).toMatch(/Open Uptime Agent for its recent results\.$/);
    note.click();
    expect(shown).toEqual([{ view: 'checks', guid: check.guid }]);
  });

  it('shows nothing while notifications are off, and a rejected key once when on', async () => {
    const h = await harness();
    const hub = createEventHub(h.agent, { snapshotThrottleMs: 10, transitionWindowMs: 20 });
    cleanups.push(() => hub.close());
    let enabled = false;
    wire(hub, () => enabled);
    // Subscribed after the notifications, so an event seen here has reached them already.
    const transitions: CheckTransition[][] = [];
    hub.subscribe((event, payload) => {
      if (event === 'checks:transition') transitions.push(payload as CheckTransition[]);
    });
    const check = h.server.admin.createCheck({
      name: 'Quiet',
      url: `http://127.0.0.1:${await closedPort()}/`,
      orgId: h.orgId,
    });
    h.server.admin.assign(check.guid, h.monitorId);
    await eventually(() => h.agent.snapshot().counts.down === 1, 10_000, 'the check to go down');
    await eventually(() => transitions.flat().some((t) => t.guid === check.guid), 10_000, 'the transition delivered');
    expect(FakeNotification.shown).toEqual([]);

    enabled = true;
    h.server.admin.resetKey(h.monitorId);
    await eventually(
      () => FakeNotification.shown.some((n) => n.options.title === 'The server refused this monitor’s API key'),
      10_000,
      'the key notification',
    );
    // The same problem in later snapshots (sent here at once, not waited for) is no new notification.
    hub.refresh();
    hub.refresh();
    expect(FakeNotification.shown.map((n) => n.options.title)).toEqual(['The server refused this monitor’s API key']);
  });

  it('tells a flapping check’s final state after the quiet window, by timer', async () => {
    const sinks = new Set<EventSink>();
    const sink: EventSink = (event, payload) => sinks.forEach((s) => s(event, payload));
    const hub: EventHub = {
      subscribe: (s) => (sinks.add(s), () => sinks.delete(s)),
      refresh: () => undefined,
      close: () => undefined,
    };
    wire(hub, () => true, 80);
    sink('checks:transition', [down('A', Date.now())]);
    sink('checks:transition', [recovered('A', Date.now())]);
    expect(FakeNotification.shown.map((n) => n.options.title)).toEqual(['A is down']);
    await eventually(() => FakeNotification.shown.length === 2, 2_000, 'the trailing notification');
    expect(FakeNotification.shown.map((n) => n.options.title)).toEqual(['A is down', 'A recovered']);
  });
});
