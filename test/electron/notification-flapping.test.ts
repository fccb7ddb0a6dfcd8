// A flapping check in notifications: the agent's transitions for a check changing state every
// 20 s, through the planner, on a fake clock (issue 25: at most 2 notifications).
import { describe, expect, it } from 'vitest';
import { flapDefaults } from '../../src-main/agent/runs/flapping.ts';
import { createTransitionTracker } from '../../src-main/agent/runs/transitions.ts';
import { openDatabase } from '../../src-main/agent/store/database.ts';
import { createEventLog } from '../../src-main/agent/store/events.ts';
import { createNotificationPlanner, type Note } from '../../src-main/electron/notification-planner.ts';
import { shellDefaults } from '../../src-main/electron/shell-defaults.ts';
import { createFakeClock } from '../support/fake-clock.ts';
import { runOutcome } from '../support/probe-outcomes.ts';

/** Runs Shop every 10 s for `ms`, passing when `passes` says so; returns every note shown. */
function scenario() {
  const clock = createFakeClock();
  const tracker = createTransitionTracker(createEventLog(openDatabase(':memory:')), () => new Date(clock.now()));
  const planner = createNotificationPlanner(shellDefaults);
  const notes: Note[] = [];
  return {
    notes,
    async runFor(ms: number, passes: (elapsedMs: number) => boolean): Promise<void> {
      for (let elapsed = 0; elapsed < ms; elapsed += 10_000) {
        const nowMs = clock.now();
        const error = passes(elapsed) ? '' : 'status 503, expected 200';
        const t = tracker.observe(
          { guid: 'shop', name: 'Shop', skipped: false, error },
          runOutcome(error === ''),
          new Date(nowMs),
        );
        if (t !== undefined) notes.push(...planner.transitions([t], nowMs));
        const due = planner.nextDueAt();
        if (due !== undefined && due <= nowMs) notes.push(...planner.due(nowMs));
        await clock.advance(10_000);
      }
    },
  };
}

const every20s = (elapsedMs: number): boolean => Math.floor(elapsedMs / 20_000) % 2 === 1;

describe('notifications of a flapping check', () => {
  it('a check flapping every 20 s for 3 minutes makes at most 2 notifications, also once it settles', async () => {
    const s = scenario();
    await s.runFor(3 * 60_000, every20s);
    expect(s.notes.map((n) => n.title)).toEqual(['Shop is down', 'Shop keeps going down and up']);
    expect(s.notes[1]?.body).toBe(
      'It changed state 4 times in 1 min. You are not told of each change; you are told if it stays down.',
    );
    await s.runFor(flapDefaults.settleMs + 60_000, () => true);
    expect(s.notes).toHaveLength(2);
  });

  it('tells when a flapping check settles down', async () => {
    const s = scenario();
    await s.runFor(3 * 60_000, every20s);
    await s.runFor(flapDefaults.settleMs + 60_000, () => false);
    expect(s.notes.map((n) => n.title)).toEqual(['Shop is down', 'Shop keeps going down and up', 'Shop is down']);
    expect(s.notes[2]?.body).toBe(
      'It stopped changing and stays down: status 503, expected 200 Open Uptime Agent for its recent results.',
    );
  });
});
