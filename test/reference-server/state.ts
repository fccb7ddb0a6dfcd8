// The server's whole persistent state: one database and the stores over it.
import type { DatabaseSync } from 'node:sqlite';
import { createCheckStore, type CheckStore } from './checks.ts';
import { openDatabase } from './db.ts';
import { createAssignmentStore, type AssignmentStore } from './deltas.ts';
import { createMonitorStore, type MonitorStore } from './monitors.ts';
import { createOrganizationStore, type OrganizationStore } from './organizations.ts';
import { createResultStore, type ResultStore } from './results-store.ts';
import { createStatusStore, type StatusStore } from './statuses.ts';
import { createStamper, type Stamper } from './timestamps.ts';
import { createTokenStore, type TokenStore } from './tokens.ts';

export interface ServerState {
  db: DatabaseSync;
  now: () => Date;
  stamper: Stamper;
  organizations: OrganizationStore;
  tokens: TokenStore;
  monitors: MonitorStore;
  checks: CheckStore;
  assignments: AssignmentStore;
  results: ResultStore;
  statuses: StatusStore;
}

export function openState(dbPath: string | undefined, now: () => Date): ServerState {
  const db = openDatabase(dbPath);
  const stamper = createStamper(db, now);
  const checks = createCheckStore(db, stamper);
  const assignments = createAssignmentStore(db, stamper);
  return {
    db,
    now,
    stamper,
    organizations: createOrganizationStore(db, now),
    tokens: createTokenStore(db, now),
    monitors: createMonitorStore(db, now),
    checks,
    assignments,
    results: createResultStore(db, checks, assignments, now),
    statuses: createStatusStore(db, now),
  };
}
