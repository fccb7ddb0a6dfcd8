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

interface Ring {
  last: HistoryEntry;
  /** 0 empty, 1 pass, 2 fail; skipped runs are not counted. */
  verdicts: Uint8Array;
  next: number;
  passes: number;
  counted: number;
  latency: Float64Array;
  latencyNext: number;
  latencyCount: number;
  /** 1 up, 2 down, 3 skipped; skipped runs count here, unlike in the verdicts. */
  beats: Uint8Array;
  beatCount: number;
  beatNext: number;
}

export interface CheckStats {
  record(entry: HistoryEntry): void;
  figures(guid: string): CheckFigures;
  forget(guid: string): void;
}

export function createCheckStats(slots: number, sparkPoints: number): CheckStats {
  const rings = new Map<string, Ring>();
  return {
    record(entry) {
      let ring = rings.get(entry.check_guid);
      if (ring === undefined) {
        ring = {
          last: entry,
          verdicts: new Uint8Array(slots),
          next: 0,
          passes: 0,
          counted: 0,
          latency: new Float64Array(sparkPoints),
          latencyNext: 0,
          latencyCount: 0,
          beats: new Uint8Array(beatCount),
          beatCount: 0,
          beatNext: 0,
        };
        rings.set(entry.check_guid, ring);
      }
      ring.last = entry;
      ring.beats[ring.beatNext] = entry.skipped ? 3 : entry.success ? 1 : 2;
      ring.beatNext = (ring.beatNext + 1) % beatCount;
      ring.beatCount = Math.min(beatCount, ring.beatCount + 1);
      if (!entry.skipped) {
        const old = ring.verdicts[ring.next] ?? 0;
        if (old === 1) ring.passes--;
        if (old !== 0) ring.counted--;
        ring.verdicts[ring.next] = entry.success ? 1 : 2;
        if (entry.success) ring.passes++;
        ring.counted++;
        ring.next = (ring.next + 1) % slots;
        ring.latency[ring.latencyNext] = entry.latency_ms;
        ring.latencyNext = (ring.latencyNext + 1) % sparkPoints;
        ring.latencyCount = Math.min(sparkPoints, ring.latencyCount + 1);
      }
    },
    figures(guid) {
      const ring = rings.get(guid);
      if (ring === undefined) return { latency: [] };
      const latency: number[] = [];
      for (let i = ring.latencyCount; i > 0; i--)
        latency.push(ring.latency[(ring.latencyNext - i + sparkPoints) % sparkPoints] ?? 0);
      let beats = '';
      for (let i = ring.beatCount; i > 0; i--)
        beats += beatLetters[ring.beats[(ring.beatNext - i + beatCount) % beatCount] ?? 0] ?? '';
      return {
        last: ring.last,
        beats,
        ...(ring.counted === 0 ? {} : { uptimePct: (100 * ring.passes) / ring.counted }),
        latency,
      };
    },
    forget(guid) {
      rings.delete(guid);
    },
  };
}
