// Everything the agent keeps in its store, opened once per agent: the database, the outbox and
// the history written through it, and the per-check figures rebuilt from that history.
import { createCheckStats, type CheckStats } from './check-stats.ts';
import { storeFile } from './data-dir.ts';
import type { AgentTunables } from './defaults.ts';
import { openDatabase, type Database } from './store/database.ts';
import { allHistory, createHistory, type History } from './store/history.ts';
import { createOutbox, type Outbox } from './store/outbox.ts';

export interface AgentStore {
  db: Database;
  outbox: Outbox;
  history: History;
  stats: CheckStats;
  close(): void;
}

/** Points in a check's latency sparkline. */
const sparkPoints = 30;

export function openAgentStore(dataDir: string, tunables: Pick<AgentTunables, 'outboxMaxCount' | 'outboxMaxBytes' | 'historySlots'>): AgentStore {
  const db = openDatabase(storeFile(dataDir));
  const stats = createCheckStats(tunables.historySlots, sparkPoints);
  for (const entry of allHistory(db)) stats.record(entry);
  return {
    db,
    outbox: createOutbox(db, { maxCount: tunables.outboxMaxCount, maxBytes: tunables.outboxMaxBytes }),
    history: createHistory(db, tunables.historySlots),
    stats,
    close: () => db.close(),
  };
}
