// Everything the agent keeps in its store, opened once per agent: the database, the outbox and
// the history written through it, the per-check figures rebuilt from that history, and SQLite's
// page cache sized to the results a second.
import { createCheckStats, type CheckStats } from './check-stats.ts';
import { prepareDataDir, storeFile } from '../base/data-dir.ts';
import type { AgentTunables } from '../defaults.ts';
import { silentLogger, type Logger } from '../base/log.ts';
import type { Database } from './database.ts';
import { openStore, type SetAside } from './open-store.ts';
import { allHistory, createHistory, type History } from './history.ts';
import { createOutbox, type Outbox } from './outbox.ts';
import { createPageCache, type PageCache } from './page-cache.ts';
import { dropRetiredMeta } from './meta.ts';

export interface AgentStore {
  db: Database;
  outbox: Outbox;
  history: History;
  stats: CheckStats;
  /** SQLite's page cache, sized to the results a second committed (page-cache.ts). */
  pageCache: PageCache;
  close(): void;
}

/** Points in a check's latency sparkline. */
const sparkPoints = 30;

/**
 * Prepares the data folder (0700, files 0600, said once when an older one is narrowed) and opens
 * the store; a damaged store is set aside and replaced (store/open-store.ts), said in the log.
 * A read-only folder or store throws DataDirError, for the host to say in one line.
 */
export function openAgentStore(
  dataDir: string,
  tunables: Pick<AgentTunables, 'outboxMaxCount' | 'outboxMaxBytes' | 'historySlots'>,
  log: Logger = silentLogger,
  now: Date = new Date(),
): AgentStore {
  const { tightened } = prepareDataDir(dataDir);
  if (tightened.length > 0)
    log.warn(
      { paths: tightened },
      `the data folder ${dataDir} was readable by other users; it is now 0700 and its files 0600`,
    );
  const { db, setAside } = openStore(storeFile(dataDir), now);
  if (setAside !== undefined) {
    log.warn(
      {
        setAside: setAside.file,
        recovered: setAside.recovered,
        unrecovered: setAside.unrecovered,
        reason: setAside.reason,
      },
      describeSetAside(setAside),
    );
  }
  // Live state an older version kept in meta now lives in live-state.json.
  dropRetiredMeta(db);
  const history = createHistory(db, tunables.historySlots);
  // What the last run left in the history's journal goes into the rings first, so the start-up
  // scan reads the rings alone. A store that cannot be written (a full disk) is read as it is:
  // the journal is moved on a later try, and its entries are then counted from there.
  try {
    history.compactAll();
  } catch (error) {
    log.warn({ err: error }, 'the recent results of the last run could not be sorted into place yet; they are kept');
  }
  const stats = createCheckStats(tunables.historySlots, sparkPoints);
  for (const entry of allHistory(db)) stats.record(entry);
  return {
    db,
    outbox: createOutbox(db, { maxCount: tunables.outboxMaxCount, maxBytes: tunables.outboxMaxBytes }),
    history,
    stats,
    pageCache: createPageCache(db),
    close: () => {
      // A clean stop leaves the journal empty; when it cannot, the next start moves it.
      try {
        history.compactAll();
      } catch {
        // Kept in the journal: nothing is lost.
      }
      db.close();
    },
  };
}

/** What happened to a damaged store, and to the results it held, in the reader's words. */
export function describeSetAside(aside: SetAside): string {
  const lost =
    aside.unrecovered === null
      ? 'results it held beyond those could not be recovered, and how many cannot be told'
      : aside.unrecovered === 0
        ? 'none was lost'
        : `${aside.unrecovered} could not be recovered`;
  return `the store was damaged (${aside.reason}); it is kept as ${aside.file}, its ${aside.recovered} readable unsent results were moved into a new store (${lost}), and monitoring goes on`;
}
