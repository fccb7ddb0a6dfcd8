// The running agent's load (schedule/load.ts) kept in the store, where `status --json` — another
// process — reads it. Written at every sample and removed when probing stops; a figure older
// than a few sample periods belongs to an agent that is gone (killed) and is ignored.
import type { LoadReport } from './schedule/load.ts';
import type { Database } from './store/database.ts';
import { deleteMeta, getMeta, setMeta } from './store/meta.ts';

interface StoredLoad extends LoadReport {
  /** Wall-clock ms of the sample. */
  at: number;
}

export function saveLoad(db: Database, report: LoadReport, atMs: number): void {
  setMeta(db, 'load', JSON.stringify({ ...report, at: atMs } satisfies StoredLoad));
}

export function clearLoad(db: Database): void {
  deleteMeta(db, 'load');
}

/** The running agent's load, if a fresh one is recorded. */
export function readLoad(db: Database, nowMs: number, freshMs: number): LoadReport | undefined {
  const raw = getMeta(db, 'load');
  if (raw === undefined) return undefined;
  try {
    const { at, ...report } = JSON.parse(raw) as StoredLoad;
    return nowMs - at <= freshMs ? report : undefined;
  } catch {
    return undefined;
  }
}

/** Whether two reports differ in anything shown: equal ones are neither stored nor announced. */
export const sameLoad = (a: LoadReport | undefined, b: LoadReport): boolean =>
  a !== undefined && a.overloaded === b.overloaded && a.skippedOverlap === b.skippedOverlap && a.skippedBacklog === b.skippedBacklog && a.recentSkipped === b.recentSkipped;
