// Per-check figures the UI shows for every row (last result, uptime %, latency sparkline), kept
// in memory as small rings so a snapshot of thousands of checks costs no query.
import type { HistoryEntry } from './history.ts';

export interface CheckFigures {
  last?: HistoryEntry;
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
 * typed arrays shared by every check (row = slot * width): one typed array and one ArrayBuffer
 * per check each cost ~0.2 KB of V8 objects and ~0.15 KB of native bookkeeping besides their
 * bytes, ~1 KB a check for the three rings (issue 26: memory added per check).
 */
interface Ring {
  slot: number;
  last: HistoryEntry;
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

export interface CheckStats {
  record(entry: HistoryEntry): void;
  figures(guid: string): CheckFigures;
  forget(guid: string): void;
}

export function createCheckStats(slots: number, sparkPoints: number): CheckStats {
  const rings = new Map<string, Ring>();
  const freeRows: number[] = [];
  let rows = 0;
  let capacity = initialRows;
  /** 0 empty, 1 pass, 2 fail; skipped runs are not counted. */
  let verdicts = new Uint8Array(capacity * slots);
  /** The latest latencies, ms. */
  let latency = new Float64Array(capacity * sparkPoints);
  /** 1 up, 2 down, 3 skipped; skipped runs count here, unlike in the verdicts. */
  let beats = new Uint8Array(capacity * beatCount);

  function takeRow(): number {
    const free = freeRows.pop();
    if (free !== undefined) return free;
    if (rows === capacity) {
      capacity *= 2;
      const grown = { v: new Uint8Array(capacity * slots), l: new Float64Array(capacity * sparkPoints) };
      const grownBeats = new Uint8Array(capacity * beatCount);
      grown.v.set(verdicts);
      grown.l.set(latency);
      grownBeats.set(beats);
      verdicts = grown.v;
      latency = grown.l;
      beats = grownBeats;
    }
    return rows++;
  }

  return {
    record(entry) {
      let ring = rings.get(entry.check_guid);
      if (ring === undefined) {
        ring = {
          slot: takeRow(),
          last: entry,
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
      ring.last = entry;
      beats[ring.slot * beatCount + ring.beatNext] = entry.skipped ? 3 : entry.success ? 1 : 2;
      ring.beatNext = (ring.beatNext + 1) % beatCount;
      ring.beatCount = Math.min(beatCount, ring.beatCount + 1);
      if (!entry.skipped) {
        const at = ring.slot * slots + ring.next;
        const old = verdicts[at] ?? 0;
        if (old === 1) ring.passes--;
        if (old !== 0) ring.counted--;
        verdicts[at] = entry.success ? 1 : 2;
        if (entry.success) ring.passes++;
        ring.counted++;
        ring.next = (ring.next + 1) % slots;
        latency[ring.slot * sparkPoints + ring.latencyNext] = entry.latency_ms;
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
        letters += beatLetters[beats[ring.slot * beatCount + ((ring.beatNext - i + beatCount) % beatCount)] ?? 0] ?? '';
      return {
        last: ring.last,
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
      verdicts.fill(0, ring.slot * slots, (ring.slot + 1) * slots);
      latency.fill(0, ring.slot * sparkPoints, (ring.slot + 1) * sparkPoints);
      beats.fill(0, ring.slot * beatCount, (ring.slot + 1) * beatCount);
      freeRows.push(ring.slot);
    },
  };
}
