// Schema migrations, applied in order; PRAGMA user_version records how many have run.
// Append only: a shipped migration is never edited, so every store upgrades the same way.
/**
 * A run's columns in the keyed history's ring and journal (migration 7), and how each is read from
 * a row of the schema before it (guid text, ISO time). Part of that migration's text: never edited.
 */
const keyedRun = {
  columns: `seq         INTEGER NOT NULL,
    ran_at      INTEGER NOT NULL, -- ms since the epoch
    success     INTEGER NOT NULL,
    skipped     INTEGER NOT NULL,
    http_status INTEGER NOT NULL,
    latency_ms  INTEGER NOT NULL,
    error       TEXT NOT NULL`,
  fromText: `h.seq, COALESCE(CAST(round(unixepoch(h.ran_at, 'subsec') * 1000) AS INTEGER), 0),
           h.success, h.skipped, h.http_status, h.latency_ms, h.error`,
} as const;

export const migrations: readonly string[] = [
  `
  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

  -- The synced check set. wire holds the check exactly as the server sent it (unknown fields
  -- stripped); the other columns are derived from it for queries.
  CREATE TABLE checks (
    guid         TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    enabled      INTEGER NOT NULL,
    deleted      INTEGER NOT NULL,
    private_def  INTEGER NOT NULL,
    interval_sec INTEGER NOT NULL,
    updated_at   TEXT NOT NULL,
    wire         TEXT NOT NULL
  );

  -- Results waiting for the server, in commit order (id). payload is the wire Result JSON;
  -- bytes its UTF-8 length, so batches can be cut under the 1 MiB body limit without re-encoding.
  CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    check_guid TEXT NOT NULL,
    ran_at     TEXT NOT NULL,
    payload    TEXT NOT NULL,
    bytes      INTEGER NOT NULL
  );

  -- Results the server refused with 400 even when sent alone: kept aside, visible, not retried.
  CREATE TABLE rejected (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    check_guid  TEXT NOT NULL,
    ran_at      TEXT NOT NULL,
    payload     TEXT NOT NULL,
    reason      TEXT NOT NULL,
    rejected_at TEXT NOT NULL
  );

  -- Recent results per check for the UI (last results, uptime %, latency series), kept as a
  -- ring of slots per check: a new result overwrites slot seq % size, so the table stays bounded
  -- without pruning queries. skipped = a failure during a connectivity outage, never uploaded.
  CREATE TABLE history (
    check_guid  TEXT NOT NULL,
    slot        INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    ran_at      TEXT NOT NULL,
    success     INTEGER NOT NULL,
    skipped     INTEGER NOT NULL,
    http_status INTEGER NOT NULL,
    latency_ms  INTEGER NOT NULL,
    error       TEXT NOT NULL,
    PRIMARY KEY (check_guid, slot)
  ) WITHOUT ROWID;
  CREATE INDEX history_by_seq ON history (check_guid, seq);

  -- Connectivity outages. ended_at NULL = the one in progress.
  CREATE TABLE outages (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    ended_at   TEXT
  );
  `,
  `
  -- Rollups per check (store/rollups.ts): one row per minute and per hour, so uptime and latency
  -- over 1 h / 24 h / 7 d are read from a few rows. Checks get a small integer key: the rows are
  -- many, a guid in each would double the table.
  CREATE TABLE rollup_keys (
    id   INTEGER PRIMARY KEY,
    guid TEXT NOT NULL UNIQUE
  );
  CREATE TABLE rollups_minute (
    check_id   INTEGER NOT NULL,
    bucket     INTEGER NOT NULL, -- minutes since the epoch
    runs       INTEGER NOT NULL,
    failures   INTEGER NOT NULL,
    skipped    INTEGER NOT NULL,
    lat_min    INTEGER,
    lat_median INTEGER,
    lat_p95    INTEGER,
    lat_max    INTEGER,
    lat_count  INTEGER NOT NULL,
    PRIMARY KEY (check_id, bucket)
  ) WITHOUT ROWID;
  CREATE TABLE rollups_hour (
    check_id   INTEGER NOT NULL,
    bucket     INTEGER NOT NULL, -- hours since the epoch
    runs       INTEGER NOT NULL,
    failures   INTEGER NOT NULL,
    skipped    INTEGER NOT NULL,
    lat_min    INTEGER,
    lat_median INTEGER,
    lat_p95    INTEGER,
    lat_max    INTEGER,
    lat_count  INTEGER NOT NULL,
    PRIMARY KEY (check_id, bucket)
  ) WITHOUT ROWID;

  -- State changes (store/events.ts): one row per episode; ended_at NULL while it lasts.
  -- check_guid '' = an event of the agent itself.
  CREATE TABLE events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    kind       TEXT NOT NULL,
    check_guid TEXT NOT NULL,
    check_name TEXT NOT NULL,
    started_at TEXT NOT NULL,
    ended_at   TEXT,
    reason     TEXT NOT NULL,
    end_reason TEXT NOT NULL
  );
  CREATE INDEX events_by_check ON events (check_guid, id);
  CREATE INDEX events_open ON events (kind, check_guid) WHERE ended_at IS NULL;
  `,
  // Results belong to the monitor that produced them: after a new enroll, the previous monitor's
  // unsent results stay aside (a reclaim of that id sends them) instead of going out under a key
  // whose server would drop them silently.
  `
  ALTER TABLE outbox ADD COLUMN monitor_id TEXT NOT NULL DEFAULT '';
  UPDATE outbox SET monitor_id = COALESCE(json_extract(payload, '$.monitor_id'), '');
  CREATE INDEX outbox_by_monitor ON outbox (monitor_id, id);
  `,
  // The history ring is written once per run; this index doubled the pages each commit writes
  // (issue 14: SQLite's WAL writes were the largest part of the agent's own CPU). A check's
  // slots are contiguous in the primary key, so its newest runs are read by sorting its own
  // ≤ historySlots rows, and the start-up scan sorts one check at a time (store/history.ts).
  `
  DROP INDEX history_by_seq;
  `,
  // The server's absences (health/server-absences.ts, issue 25): each stretch in which its calls
  // got no usable answer, with the last failure as data (kind, cause, HTTP status), the results
  // waiting when it began, the most waiting during it and when it ended, and how many of those
  // were delivered after it. last_seen_at: the last failed call, where a crash leaves it closed.
  `
  CREATE TABLE server_absences (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at       TEXT NOT NULL,
    ended_at         TEXT,
    last_seen_at     TEXT NOT NULL,
    failure_kind     TEXT NOT NULL,
    failure_cause    TEXT,
    failure_status   INTEGER,
    waiting_at_start INTEGER NOT NULL,
    waiting_most     INTEGER NOT NULL,
    waiting_at_end   INTEGER,
    delivered_after  INTEGER NOT NULL DEFAULT 0,
    drained_at       TEXT,
    end_kind         TEXT
  );
  `,
  // The history's journal (store/history.ts, issue 26): a run's entry is appended here in the
  // commit that stores its result, and moved into the check's ring every few thousand runs,
  // grouped by check. Written straight into the ring, each run rewrote a page of its own check
  // (200 results in a commit, 200 pages): 22 of the store's 32 us per result and commits of
  // 10-25 ms at 2,000 runs a second. Appended rows share pages, as the outbox's do.
  `
  CREATE TABLE history_log (
    id          INTEGER PRIMARY KEY,
    check_guid  TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    ran_at      TEXT NOT NULL,
    success     INTEGER NOT NULL,
    skipped     INTEGER NOT NULL,
    http_status INTEGER NOT NULL,
    latency_ms  INTEGER NOT NULL,
    error       TEXT NOT NULL
  );
  `,
  // The history keyed by check key and time in ms (issue 26): a guid and an ISO time were ~65 of
  // a kept run's ~97 bytes. With 3,500 checks' rings full (npm run bench:history), the store took
  // 102 MB instead of 34, and a move of the journal into the rings (52,500 rows) 382-624 ms
  // instead of 236-329. The rollups' key table becomes every check's (store/check-keys.ts).
  `
  ALTER TABLE rollup_keys RENAME TO check_keys;
  INSERT INTO check_keys (guid)
    SELECT check_guid FROM history UNION SELECT check_guid FROM history_log EXCEPT SELECT guid FROM check_keys;

  CREATE TABLE history_keyed (
    check_id    INTEGER NOT NULL,
    slot        INTEGER NOT NULL,
    ${keyedRun.columns},
    PRIMARY KEY (check_id, slot)
  ) WITHOUT ROWID;
  INSERT INTO history_keyed
    SELECT k.id, h.slot, ${keyedRun.fromText} FROM history h JOIN check_keys k ON k.guid = h.check_guid;
  DROP TABLE history;
  ALTER TABLE history_keyed RENAME TO history;

  CREATE TABLE history_log_keyed (
    id          INTEGER PRIMARY KEY,
    check_id    INTEGER NOT NULL,
    ${keyedRun.columns}
  );
  INSERT INTO history_log_keyed
    SELECT h.id, k.id, ${keyedRun.fromText} FROM history_log h JOIN check_keys k ON k.guid = h.check_guid;
  DROP TABLE history_log;
  ALTER TABLE history_log_keyed RENAME TO history_log;
  `,
];
