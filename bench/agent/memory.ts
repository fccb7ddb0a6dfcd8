// Where an agent process's memory goes. From the OS (/proc/PID/smaps): file-backed pages (the node
// binary and its libraries, the store's shared WAL index), glibc's malloc heap and arenas (SQLite's
// page cache, undici's and OpenSSL's native buffers live there), and the rest of the anonymous
// memory (mostly the V8 heap; also thread stacks and malloc blocks large enough for their own
// mmap). From inside, when the bench preload ran (memory-preload.js): the V8 heap, external
// memory and array buffers as V8 counts them.
import { readFileSync } from 'node:fs';

export interface OsMemory {
  rssMb: number;
  /** From smaps_rollup: the anonymous share of the RSS. */
  anonymousMb: number;
  fileMb: number;
  /** [heap] (the main arena) plus the other arenas' 64 MiB-aligned heaps. */
  mallocMb: number;
  /** Anonymous memory outside malloc's arenas: mostly the V8 heap. */
  otherAnonMb: number;
  /**
   * Of otherAnonMb, V8's pages (its anonymous read-write mappings of 256 KiB). V8 keeps the pages a
   * GC frees in a pool until a GC that reduces memory, so pages above the heap's total are a past
   * burst's high-water mark, not live heap (docs/performance.md, the soak's step).
   */
  v8PagesMb: number;
}

export interface InsideMemory {
  at: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** V8's own malloc'ed memory (getHeapStatistics().malloced_memory). */
  malloced: number;
  spaces: { name: string; used: number; size: number }[];
  /** The thread's GCs since it loaded the preload (absent from preloads before it counted them). */
  gc?: GcTotals;
}

/** A thread's GCs so far, as the preload sums them from its 'gc' performance entries. */
export interface GcTotals {
  scavenges: number;
  scavengeMs: number;
  /** Full GCs: their final pauses on the thread (the marking before runs mostly on V8's helpers). */
  fullGcs: number;
  fullGcMs: number;
  /** The other pauses on the thread: incremental marking steps, weak callbacks. */
  otherMs: number;
}

/** A thread's GCs between two of its preload's snapshots, per second of the time between them. */
export interface GcRates {
  scavengesPerS: number;
  /** Mean pause in ms; undefined when there was none. */
  scavengeMeanMs: number | undefined;
  fullGcsPerS: number;
  fullGcMeanMs: number | undefined;
  /** Every GC pause on the thread, summed: ms of each second it spent in GC. */
  pauseMsPerS: number;
}

/**
 * A thread's GCs between two of its snapshots, as counts and summed pauses; undefined when either
 * lacks GC figures or they are not in order (a thread started again between them counts afresh).
 */
export function gcCountsBetween(
  before: InsideMemory | undefined,
  after: InsideMemory | undefined,
): GcTotals | undefined {
  if (before?.gc === undefined || after?.gc === undefined) return undefined;
  const [a, b] = [before.gc, after.gc];
  const counts = {
    scavenges: b.scavenges - a.scavenges,
    scavengeMs: b.scavengeMs - a.scavengeMs,
    fullGcs: b.fullGcs - a.fullGcs,
    fullGcMs: b.fullGcMs - a.fullGcMs,
    otherMs: b.otherMs - a.otherMs,
  };
  return counts.scavenges < 0 || counts.fullGcs < 0 ? undefined : counts;
}

/**
 * The GCs between two snapshots of one thread, over the time the snapshots themselves were taken
 * (the preload writes every 2 s, so not the bench's window to the second); undefined without
 * their counts (gcCountsBetween) or time between them.
 */
export function gcBetween(before: InsideMemory | undefined, after: InsideMemory | undefined): GcRates | undefined {
  const counts = gcCountsBetween(before, after);
  const seconds = before === undefined || after === undefined ? 0 : (after.at - before.at) / 1000;
  if (counts === undefined || seconds <= 0) return undefined;
  const { scavenges, scavengeMs, fullGcs, fullGcMs, otherMs } = counts;
  return {
    scavengesPerS: scavenges / seconds,
    scavengeMeanMs: scavenges === 0 ? undefined : scavengeMs / scavenges,
    fullGcsPerS: fullGcs / seconds,
    fullGcMeanMs: fullGcs === 0 ? undefined : fullGcMs / fullGcs,
    pauseMsPerS: (scavengeMs + fullGcMs + otherMs) / seconds,
  };
}

const kbField = (block: string, name: string): number => {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(block);
  return match?.[1] === undefined ? 0 : Number(match[1]);
};

interface Mapping {
  start: number;
  end: number;
  perms: string;
  path: string;
  rssKb: number;
}

const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/;

export function parseSmaps(text: string): Mapping[] {
  const mappings: Mapping[] = [];
  let current: Mapping | undefined;
  for (const line of text.split('\n')) {
    const head = header.exec(line);
    if (head !== null) {
      current = {
        start: parseInt(head[1] ?? '0', 16),
        end: parseInt(head[2] ?? '0', 16),
        perms: head[3] ?? '',
        path: head[4] ?? '',
        rssKb: 0,
      };
      mappings.push(current);
    } else if (current !== undefined && line.startsWith('Rss:')) current.rssKb = kbField(line, 'Rss');
  }
  return mappings;
}

/** V8's page: each page of its heap's spaces is a mapping of this size, but code (inside V8's code range) and large objects. */
const v8PageBytes = 256 * 1024;

/** glibc's non-main arenas: heaps of at most 64 MiB, aligned to 64 MiB, the unused rest reserved ---p. */
const arenaHeapBytes = 64 * 1024 * 1024;

function isArenaHeap(m: Mapping, next: Mapping | undefined): boolean {
  if (m.path !== '' || m.start % arenaHeapBytes !== 0 || !m.perms.startsWith('rw')) return false;
  if (m.end - m.start === arenaHeapBytes) return true;
  return (
    next !== undefined &&
    next.start === m.end &&
    next.perms.startsWith('---') &&
    next.path === '' &&
    next.end - m.start === arenaHeapBytes
  );
}

export function classify(mappings: readonly Mapping[], rollup: string): OsMemory {
  let fileKb = 0;
  let mallocKb = 0;
  let anonKb = 0;
  let v8PagesKb = 0;
  mappings.forEach((m, i) => {
    if (m.path.startsWith('/')) fileKb += m.rssKb;
    else if (m.path === '[heap]' || isArenaHeap(m, mappings[i + 1])) mallocKb += m.rssKb;
    else {
      anonKb += m.rssKb;
      if (m.path === '' && m.perms === 'rw-p' && m.end - m.start === v8PageBytes) v8PagesKb += m.rssKb;
    }
  });
  const mb = (kb: number): number => kb / 1024;
  return {
    rssMb: mb(kbField(rollup, 'Rss')),
    anonymousMb: mb(kbField(rollup, 'Anonymous')),
    fileMb: mb(fileKb),
    mallocMb: mb(mallocKb),
    otherAnonMb: mb(anonKb),
    v8PagesMb: mb(v8PagesKb),
  };
}

export function osMemory(pid: number): OsMemory | string {
  try {
    return classify(
      parseSmaps(readFileSync(`/proc/${pid}/smaps`, 'utf8')),
      readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'),
    );
  } catch (error) {
    return `smaps unreadable: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The preload's last snapshot, if it wrote one. */
export function insideMemory(file: string): InsideMemory | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as InsideMemory;
  } catch {
    return undefined;
  }
}
