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
 * One check's place in the shared pools and its counters. The rings themselves live in three
 * typed arrays shared by every check (row = slot * row width): one typed array and one ArrayBuffer
 * per check each cost ~0.2 KB of V8 objects and ~0.15 KB of native bookkeeping besides their
 * bytes, ~1 KB a check for the three rings (issue 26: memory added per check). The rows are packed
 * as tight as what they hold: a verdict is one bit (pass or fail; the counters say how much of the
 * ring is filled), a beat two (up, down or skipped), a latency two bytes (whole milliseconds, as
 * the wire carries them; see latencyCeilingMs).
 * With 300 verdicts, 30 latencies and 50 beats that is 111 bytes a check instead of 590, and
 * 0.9 MB instead of 4.8 MB in the pools at 6,000 checks (8,192 rows; heap snapshots).
 */
interface Ring {
  slot: number;
  next: number;
  passes: number;
  counted: number;
  latencyNext: number;
  latencyCount: number;
  beatCount: number;
  beatNext: number;
}

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
  const rings = new Map<string, Ring>();
  const freeRows: number[] = [];
  const verdictRowBytes = Math.ceil(slots / 8);
  let rows = 0;
  let capacity = initialRows;
  /** One bit a run, set for a pass; skipped runs are not counted. */
  let verdicts = new Uint8Array(capacity * verdictRowBytes);
  /** The latest latencies, whole ms (up to latencyCeilingMs). */
  let latency = new LatencyPoints(capacity * sparkPoints);
  /** beatBits a run; skipped runs count here, unlike in the verdicts. */
  let beats = new Uint8Array(capacity * beatRowBytes);

  function takeRow(): number {
    const free = freeRows.pop();
    if (free !== undefined) return free;
    if (rows === capacity) {
      capacity *= 2;
      const grown = {
        v: new Uint8Array(capacity * verdictRowBytes),
        l: new LatencyPoints(capacity * sparkPoints),
        b: new Uint8Array(capacity * beatRowBytes),
      };
      grown.v.set(verdicts);
      grown.l.set(latency);
      grown.b.set(beats);
      verdicts = grown.v;
      latency = grown.l;
      beats = grown.b;
    }
    return rows++;
  }

  const verdictAt = (slot: number, i: number): boolean =>
    ((verdicts[slot * verdictRowBytes + (i >>> 3)] ?? 0) & (1 << (i & 7))) !== 0;
  function setVerdict(slot: number, i: number, pass: boolean): void {
    const at = slot * verdictRowBytes + (i >>> 3);
    const bit = 1 << (i & 7);
    verdicts[at] = pass ? (verdicts[at] ?? 0) | bit : (verdicts[at] ?? 0) & ~bit;
  }
  const beatAt = (slot: number, i: number): number =>
    ((beats[slot * beatRowBytes + Math.floor(i / beatsPerByte)] ?? 0) >>> ((i % beatsPerByte) * beatBits)) & 3;
  function setBeat(slot: number, i: number, beat: number): void {
    const at = slot * beatRowBytes + Math.floor(i / beatsPerByte);
    const shift = (i % beatsPerByte) * beatBits;
    beats[at] = ((beats[at] ?? 0) & ~(3 << shift)) | (beat << shift);
  }

  return {
    record(entry) {
      let ring = rings.get(entry.check_guid);
      if (ring === undefined) {
        ring = {
          slot: takeRow(),
          next: 0,
          passes: 0,
          counted: 0,
          latencyNext: 0,
          latencyCount: 0,
          beatCount: 0,
          beatNext: 0,
        };
        rings.set(entry.check_guid, ring);
      }
      setBeat(ring.slot, ring.beatNext, entry.skipped ? 3 : entry.success ? 1 : 2);
      ring.beatNext = (ring.beatNext + 1) % beatCount;
      ring.beatCount = Math.min(beatCount, ring.beatCount + 1);
      if (!entry.skipped) {
        // The ring fills from its start, so the run it replaces is there once it is full.
        if (ring.counted === slots) {
          if (verdictAt(ring.slot, ring.next)) ring.passes--;
          ring.counted--;
        }
        setVerdict(ring.slot, ring.next, entry.success);
        if (entry.success) ring.passes++;
        ring.counted++;
        ring.next = (ring.next + 1) % slots;
        latency[ring.slot * sparkPoints + ring.latencyNext] = Math.min(latencyCeilingMs, entry.latency_ms);
        ring.latencyNext = (ring.latencyNext + 1) % sparkPoints;
        ring.latencyCount = Math.min(sparkPoints, ring.latencyCount + 1);
      }
    },
    figures(guid) {
      const ring = rings.get(guid);
      if (ring === undefined) return { latency: [] };
      const points: number[] = [];
      for (let i = ring.latencyCount; i > 0; i--)
        points.push(latency[ring.slot * sparkPoints + ((ring.latencyNext - i + sparkPoints) % sparkPoints)] ?? 0);
      let letters = '';
      for (let i = ring.beatCount; i > 0; i--)
        letters += beatLetters[beatAt(ring.slot, (ring.beatNext - i + beatCount) % beatCount)] ?? '';
      return {
        beats: letters,
        ...(ring.counted === 0 ? {} : { uptimePct: (100 * ring.passes) / ring.counted }),
        latency: points,
      };
    },
    forget(guid) {
      const ring = rings.get(guid);
      if (ring === undefined) return;
      rings.delete(guid);
      // The row is cleared for the next check that takes it.
      verdicts.fill(0, ring.slot * verdictRowBytes, (ring.slot + 1) * verdictRowBytes);
      latency.fill(0, ring.slot * sparkPoints, (ring.slot + 1) * sparkPoints);
      beats.fill(0, ring.slot * beatRowBytes, (ring.slot + 1) * beatRowBytes);
      freeRows.push(ring.slot);
    },
  };
}
