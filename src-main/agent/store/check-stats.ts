// Per-check figures the UI shows for every row (uptime %, latency sparkline, heartbeat), kept in
// memory as small rings so a snapshot of thousands of checks costs no query. The row's last
// result is read/last-runs.ts's, which the run explanation shares.
import type { HistoryEntry } from './history.ts';

export interface CheckFigures {
  /** Share of passing runs over the kept history, skipped runs left out; undefined before any. */
  uptimePct?: number;
  /** The latest latencies, oldest first (0 = nothing came back). */
  latency: number[];
  /** The heartbeat: the latest runs, oldest first, one letter each (u up, d down, s skipped). */
  beats?: string;
}

/** Runs in a heartbeat bar: as many as fit a table row, and 50 bytes a check. */
export const beatCount = 50;
const beatLetters = ['', 'u', 'd', 's'];

/**
 * A check's figures live in rows of typed arrays shared by every check (row = slot * row width):
 * one typed array and one ArrayBuffer per check each cost ~0.2 KB of V8 objects and ~0.15 KB of
 * native bookkeeping besides their bytes, ~1 KB a check for the three rings (issue 26: memory
 * added per check). The rows are packed as tight as what they hold: a verdict is one bit (pass or
 * fail; the counters say how much of the ring is filled), a beat two (up, down or skipped), a
 * latency two bytes (whole milliseconds, as the wire carries them; see latencyCeilingMs).
 * With 300 verdicts, 30 latencies and 50 beats that is 111 bytes a check instead of 590, and
 * 0.9 MB instead of 4.8 MB in the pools at 6,000 checks (8,192 rows; heap snapshots).
 * The ring's own counters (where each ring goes on, how full it is, its passes) are a row of
 * their own, not an object a check: 28 bytes instead of a 92-byte object, and the map below holds
 * a row number, which V8 keeps without an object (~0.5 MB less at 6,000 checks, heap snapshots).
 */
const Counter = {
  /** Where the next verdict goes. */
  next: 0,
  /** Passing runs among the counted ones. */
  passes: 1,
  /** Verdicts in the ring (skipped runs are not counted). */
  counted: 2,
  latencyNext: 3,
  latencyCount: 4,
  beatCount: 5,
  beatNext: 6,
} as const;
const counterRowWidth = Object.keys(Counter).length;

/** Rows the pools start with; they double when full (a copy per doubling, never per run). */
const initialRows = 64;

/** A latency point: two bytes. */
const LatencyPoints = Uint16Array;

/**
 * The most a latency point holds. Above any run's latency (a run ends at its timeout,
 * wireLimits.maxTimeoutSec); a longer one, should a clock ever give it, reads as this.
 */
export const latencyCeilingMs = 2 ** (8 * LatencyPoints.BYTES_PER_ELEMENT) - 1;

/** Bits of a beat: 1 up, 2 down, 3 skipped (0 never written: the beat count says how many are). */
const beatBits = 2;
const beatsPerByte = 8 / beatBits;
const beatRowBytes = Math.ceil(beatCount / beatsPerByte);

export interface CheckStats {
  record(entry: HistoryEntry): void;
  figures(guid: string): CheckFigures;
  forget(guid: string): void;
}

export function createCheckStats(slots: number, sparkPoints: number): CheckStats {
  /** Each check's row in the pools below. */
  const rows = new Map<string, number>();
  const freeRows: number[] = [];
  const verdictRowBytes = Math.ceil(slots / 8);
  let used = 0;
  let capacity = initialRows;
  /** One bit a run, set for a pass; skipped runs are not counted. */
  let verdicts = new Uint8Array(capacity * verdictRowBytes);
  /** The latest latencies, whole ms (up to latencyCeilingMs). */
  let latency = new LatencyPoints(capacity * sparkPoints);
  /** beatBits a run; skipped runs count here, unlike in the verdicts. */
  let beats = new Uint8Array(capacity * beatRowBytes);
  /** The rings' counters (Counter), up to `slots` each. */
  let counters = new Uint32Array(capacity * counterRowWidth);

  function takeRow(): number {
    const free = freeRows.pop();
    if (free !== undefined) return free;
    if (used === capacity) {
      capacity *= 2;
      const grown = {
        v: new Uint8Array(capacity * verdictRowBytes),
        l: new LatencyPoints(capacity * sparkPoints),
        b: new Uint8Array(capacity * beatRowBytes),
        c: new Uint32Array(capacity * counterRowWidth),
      };
      grown.v.set(verdicts);
      grown.l.set(latency);
      grown.b.set(beats);
      grown.c.set(counters);
      verdicts = grown.v;
      latency = grown.l;
      beats = grown.b;
      counters = grown.c;
    }
    return used++;
  }

  const counter = (row: number, which: number): number => counters[row * counterRowWidth + which] ?? 0;
  function setCounter(row: number, which: number, value: number): void {
    counters[row * counterRowWidth + which] = value;
  }

  const verdictAt = (row: number, i: number): boolean =>
    ((verdicts[row * verdictRowBytes + (i >>> 3)] ?? 0) & (1 << (i & 7))) !== 0;
  function setVerdict(row: number, i: number, pass: boolean): void {
    const at = row * verdictRowBytes + (i >>> 3);
    const bit = 1 << (i & 7);
    verdicts[at] = pass ? (verdicts[at] ?? 0) | bit : (verdicts[at] ?? 0) & ~bit;
  }
  const beatAt = (row: number, i: number): number =>
    ((beats[row * beatRowBytes + Math.floor(i / beatsPerByte)] ?? 0) >>> ((i % beatsPerByte) * beatBits)) & 3;
  function setBeat(row: number, i: number, beat: number): void {
    const at = row * beatRowBytes + Math.floor(i / beatsPerByte);
    const shift = (i % beatsPerByte) * beatBits;
    beats[at] = ((beats[at] ?? 0) & ~(3 << shift)) | (beat << shift);
  }

  return {
    record(entry) {
      let row = rows.get(entry.check_guid);
      if (row === undefined) {
        row = takeRow();
        rows.set(entry.check_guid, row);
      }
      const beatNext = counter(row, Counter.beatNext);
      setBeat(row, beatNext, entry.skipped ? 3 : entry.success ? 1 : 2);
      setCounter(row, Counter.beatNext, (beatNext + 1) % beatCount);
      setCounter(row, Counter.beatCount, Math.min(beatCount, counter(row, Counter.beatCount) + 1));
      if (entry.skipped) return;
      const next = counter(row, Counter.next);
      let passes = counter(row, Counter.passes);
      let counted = counter(row, Counter.counted);
      // The ring fills from its start, so the run it replaces is there once it is full.
      if (counted === slots) {
        if (verdictAt(row, next)) passes--;
        counted--;
      }
      setVerdict(row, next, entry.success);
      setCounter(row, Counter.passes, entry.success ? passes + 1 : passes);
      setCounter(row, Counter.counted, counted + 1);
      setCounter(row, Counter.next, (next + 1) % slots);
      const latencyNext = counter(row, Counter.latencyNext);
      latency[row * sparkPoints + latencyNext] = Math.min(latencyCeilingMs, entry.latency_ms);
      setCounter(row, Counter.latencyNext, (latencyNext + 1) % sparkPoints);
      setCounter(row, Counter.latencyCount, Math.min(sparkPoints, counter(row, Counter.latencyCount) + 1));
    },
    figures(guid) {
      const row = rows.get(guid);
      if (row === undefined) return { latency: [] };
      const points: number[] = [];
      const latencyNext = counter(row, Counter.latencyNext);
      for (let i = counter(row, Counter.latencyCount); i > 0; i--)
        points.push(latency[row * sparkPoints + ((latencyNext - i + sparkPoints) % sparkPoints)] ?? 0);
      let letters = '';
      const beatNext = counter(row, Counter.beatNext);
      for (let i = counter(row, Counter.beatCount); i > 0; i--)
        letters += beatLetters[beatAt(row, (beatNext - i + beatCount) % beatCount)] ?? '';
      const counted = counter(row, Counter.counted);
      return {
        beats: letters,
        ...(counted === 0 ? {} : { uptimePct: (100 * counter(row, Counter.passes)) / counted }),
        latency: points,
      };
    },
    forget(guid) {
      const row = rows.get(guid);
      if (row === undefined) return;
      rows.delete(guid);
      // The row is cleared for the next check that takes it.
      verdicts.fill(0, row * verdictRowBytes, (row + 1) * verdictRowBytes);
      latency.fill(0, row * sparkPoints, (row + 1) * sparkPoints);
      beats.fill(0, row * beatRowBytes, (row + 1) * beatRowBytes);
      counters.fill(0, row * counterRowWidth, (row + 1) * counterRowWidth);
      freeRows.push(row);
    },
  };
}
