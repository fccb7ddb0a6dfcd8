// A check that flaps is told once as flapping, with its pattern, until it settles: the event log
// and the transitions, driven by a fake clock (issue 25).
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/agent/store/database.ts';
import { createEventLog, type EventLog } from '../../../src-main/agent/store/events.ts';
import { createFlapWatch, flapDefaults } from '../../../src-main/agent/runs/flapping.ts';
import {
  createTransitionTracker,
  type CheckTransition,
  type TransitionTracker,
} from '../../../src-main/agent/runs/transitions.ts';
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts';
import { runOutcome } from '../../support/probe-outcomes.ts';

interface Rig {
  clock: FakeClock;
  log: EventLog;
  tracker: TransitionTracker;
  told: CheckTransition[];
  /** The most cards the Events view held at any moment. */
  mostCards: number;
  run(guid: string, success: boolean): void;
}

function rig(): Rig {
  const clock = createFakeClock();
  const log = createEventLog(openDatabase(':memory:'));
  const tracker = createTransitionTracker(log, () => new Date(clock.now()));
  const r: Rig = {
    clock,
    log,
    tracker,
    told: [],
    mostCards: 0,
    run(guid, success) {
      const name = guid === 'shop' ? 'Shop' : 'Intranet';
      const t = tracker.observe(
        { guid, name, skipped: false, error: success ? '' : 'status 503, expected 200' },
        runOutcome(success),
        new Date(clock.now()),
      );
      if (t !== undefined) r.told.push(t);
      r.mostCards = Math.max(r.mostCards, log.list({ guid: 'shop', limit: 100 }).length);
    },
  };
  return r;
}

/** Runs Shop every 10 s for `ms`, its state given by the time. */
async function runFor(r: Rig, ms: number, passes: (elapsedMs: number) => boolean): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += 10_000) {
    r.run('shop', passes(elapsed));
    await r.clock.advance(10_000);
  }
}

/** Fails for 20 s, passes for 20 s, and so on. */
const every20s = (elapsedMs: number): boolean => Math.floor(elapsedMs / 20_000) % 2 === 1;

describe('a flapping check', () => {
  it('changing state every 20 s for 3 minutes makes at most 2 event cards, and is announced once as flapping', async () => {
    const r = rig();
    await runFor(r, 3 * 60_000, every20s);

    expect(r.mostCards).toBeLessThanOrEqual(2);
    // The first changes are told as they happen (the notification planner holds the quick ones back).
    expect(r.told.map((t) => t.kind)).toEqual(['down', 'recovered', 'down', 'flapping']);
    const flapping = r.told[3];
    expect(flapping?.flapping).toEqual({ since: new Date(r.clock.now() - 180_000).toISOString(), changes: 4 });
    expect(r.tracker.flapping('shop')?.changes).toBe(9);

    // One card now: the flapping episode, open, with the failing stretches it stands for.
    const cards = r.log.list({ limit: 100 });
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ kind: 'flapping', checkName: 'Shop' });
    expect(cards[0]?.endedAt).toBeUndefined();
    expect(cards[0]?.pattern?.downs).toBe(5);
    expect(cards[0]?.pattern?.downSec).toBe(80); // four closed stretches of 20 s; the fifth still lasts
    expect(cards[0]?.pattern?.recent.at(-1)?.to).toBeUndefined();
  });

  it('settles once it keeps one state: passing is told as a settled recovery, and the card closes', async () => {
    const r = rig();
    await runFor(r, 3 * 60_000, every20s);
    await runFor(r, flapDefaults.settleMs + 10_000, () => true);

    expect(r.told.slice(3).map((t) => [t.kind, t.settled])).toEqual([
      ['flapping', undefined],
      ['recovered', true],
    ]);
    expect(r.tracker.flapping('shop')).toBeUndefined();
    const cards = r.log.list({ limit: 100 });
    expect(cards.map((c) => c.kind)).toEqual(['flapping']);
    expect(cards[0]?.endReason).toBe('settled: it passes steadily again');
    expect(r.mostCards).toBeLessThanOrEqual(2);
  });

  it('settling down leaves the ongoing outage as its own card, on top of the flapping one', async () => {
    const r = rig();
    await runFor(r, 3 * 60_000, every20s);
    await runFor(r, flapDefaults.settleMs + 10_000, () => false);

    const last = r.told.at(-1);
    expect(last).toMatchObject({ kind: 'down', settled: true, error: 'status 503, expected 200' });
    expect(last?.downSince).toBe(r.tracker.downSince('shop'));
    const cards = r.log.list({ limit: 100 });
    expect(cards.map((c) => [c.kind, c.endedAt === undefined])).toEqual([
      ['down', true],
      ['flapping', false],
    ]);
    // Back to normal: the next recovery is told as usual, and that outage keeps its card.
    r.run('shop', true);
    expect(r.told.at(-1)).toMatchObject({ kind: 'recovered' });
    expect(r.log.list({ limit: 100 }).map((c) => c.kind)).toEqual(['down', 'flapping']);
  });

  it('two real outages an hour apart are told as such, not as flapping', async () => {
    const r = rig();
    await runFor(r, 60_000, (ms) => ms >= 30_000); // down 30 s, then up
    await runFor(r, 60 * 60_000, () => true);
    await runFor(r, 60_000, (ms) => ms >= 30_000);
    expect(r.told.map((t) => t.kind)).toEqual(['down', 'recovered', 'down', 'recovered']);
    expect(r.log.list({ limit: 10 }).map((c) => c.kind)).toEqual(['down', 'down']);
  });

  it('another check keeps its own cards while one flaps; a restart finds the flapping episode', async () => {
    const r = rig();
    r.run('intranet', false);
    await runFor(r, 3 * 60_000, every20s);
    expect(r.log.list({ limit: 100 }).map((c) => [c.kind, c.checkName])).toEqual([
      ['flapping', 'Shop'],
      ['down', 'Intranet'],
    ]);

    const again = createTransitionTracker(r.log, () => new Date(r.clock.now()));
    expect(again.flapping('shop')?.since).toBe(r.tracker.flapping('shop')?.since);
    again.forget('shop');
    expect(r.log.openEvents().map((e) => e.checkName)).toEqual(['Intranet']);
  });
});

describe('the flap watch', () => {
  it.each([
    { name: 'three changes are not flapping', changes: [0, 20, 40], flapping: false },
    { name: 'four within ten minutes are', changes: [0, 20, 40, 60], flapping: true },
    { name: 'four spread over more than ten minutes are not', changes: [0, 200, 400, 601], flapping: false },
  ])('$name', ({ changes, flapping }) => {
    const watch = createFlapWatch();
    const started = changes.map((s) => watch.changed('shop', s * 1000)).filter((f) => f !== undefined);
    expect(started.length > 0).toBe(flapping);
  });
});
