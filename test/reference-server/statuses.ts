// Monitor self-health reports: every report is kept (history), the latest is what a Monitors
// page would show.
import type { DatabaseSync } from 'node:sqlite';
import { int, text, type Row } from './db.ts';
import type { MonitorStatusBody, StoredStatus } from './types.ts';

export interface StatusStore {
  record(monitorId: string, status: MonitorStatusBody): void;
  list(monitorId?: string): StoredStatus[];
  latest(monitorId: string): StoredStatus | undefined;
}

function toStatus(row: Row): StoredStatus {
  return {
    seq: int(row, 'seq'),
    monitorId: text(row, 'monitor_id'),
    receivedAt: text(row, 'received_at'),
    status: JSON.parse(text(row, 'body')) as MonitorStatusBody,
  };
}

export function createStatusStore(db: DatabaseSync, now: () => Date): StatusStore {
  const insert = db.prepare('INSERT INTO statuses (monitor_id, body, received_at) VALUES (?, ?, ?)');
  const all = db.prepare('SELECT * FROM statuses ORDER BY seq');
  const byMonitor = db.prepare('SELECT * FROM statuses WHERE monitor_id = ? ORDER BY seq');
  const latest = db.prepare('SELECT * FROM statuses WHERE monitor_id = ? ORDER BY seq DESC LIMIT 1');
  return {
    record: (monitorId, status) => void insert.run(monitorId, JSON.stringify(status), now().toISOString()),
    list: (monitorId) => (monitorId === undefined ? all.all() : byMonitor.all(monitorId)).map(toStatus),
    latest(monitorId) {
      const row = latest.get(monitorId);
      return row ? toStatus(row) : undefined;
    },
  };
}
