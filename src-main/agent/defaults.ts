// The agent's own tunables (its loops, concurrency, outbox bound, clocks, offline handling),
// each with the reason for its value. Callers override them per run (CLI flags, settings). Other
// concerns keep their numbers in a defaults object of their own beside their code (probes, the
// private definitions file, the result sink, rollups, the API client, the event hub, the shell):
// docs/architecture.md "Tunables" lists each one.
import type { BackoffPolicy } from './delivery/backoff.ts';

/**
 * The housekeeping grid: the load sample (with live-state.json), the clock watch, the key file's
 * poll and the rollups' write wait for its next tick (base/clock.ts untilNextTick), so an agent at
 * rest wakes once for all of them. At 5 s they were ~13 % of its CPU (a 20-check profile, issue 26).
 */
export const housekeepingGridMs = 15_000;

export const agentDefaults = {
  /** Check changes on the server reach the agent within a minute, at one small GET a minute. */
  syncIntervalMs: 60_000,
  /**
   * Results that change nothing reach the server within half a minute: a check that goes down or
   * recovers is uploaded at once (agent.ts), and so is a full batch. Every 10 s, at rest the
   * uploads were the largest cost of the agent's own (each a call, ~2.7 ms of CPU; 20 checks at
   * 60 s: 1.12 -> 0.94 ms/s at 30 s, side by side, issue 26). As often as the ping, so that with
   * the minute's sync and status a ping is rarely needed (delivery/service-calls.ts).
   */
  uploadIntervalMs: 30_000,
  /** The server's Monitors page refreshes its health view about once a minute. */
  statusIntervalMs: 60_000,
  /** Heartbeat: often enough for last_seen_at to tell a dead agent quickly. */
  pingIntervalMs: 30_000,
  /**
   * After 401 (key reset) or 403 (monitor disabled) only one light request (ping) asks again,
   * every authRetryMs to 2 x authRetryMs (15-30 s): a re-enabled monitor resumes within 30 s,
   * and a rejected one costs the server at most one request per 15 s.
   */
  authRetryMs: 15_000,
  /**
   * Runs at once, across all checks. Loopback and LAN probes finish in milliseconds, so even
   * 5,000 checks at 10 s keep a few dozen in flight; the cap bounds sockets and memory when many
   * targets hang until their timeout.
   */
  concurrency: 256,
  /**
   * The cap while the probe thread is the bottleneck (runs/run-cap.ts): 64 runs at once keep its
   * loop busy on a 2-core machine, and more only wait inside it. At 6,000 checks at 1 s (two
   * interleaved rounds of bench:flags, a fixed cap): 64 ran 5,231-5,375 runs a second at
   * 0.193-0.199 ms CPU a run in 158-161 MB, against 4,266-5,315, 0.212-0.262 ms and 170-172 MB
   * with 256; 32 left the thread idle between runs (4,198-4,621 a second).
   */
  busyConcurrency: 64,
  /**
   * Overload is judged over the last minute: long enough that one slow burst does not flap the
   * state, short enough that the warning clears soon after the cause is gone.
   */
  loadWindowMs: 60_000,
  /**
   * The scheduler's skip counts are read this often: a quarter of the load window, fresh enough
   * for a warning judged over a minute. It is also the pace of live-state.json (each sample is
   * written; heartbeatMs in live/publisher.ts).
   */
  loadSampleMs: housekeepingGridMs,
  /**
   * Runs due within this many ms of each other start together, up to this much early. Spread one
   * per millisecond (1,000 checks at 1 s), every run's connect, answer and close each woke the
   * event loop on its own; started a few at a time they share the wake-ups, as a prober with
   * several requests in flight does: ~0.1 ms less CPU per run (issue 14, docs/architecture.md
   * "Where the time and the memory go"). 30 rather than 10 since issue 26: less CPU a run at 1,000
   * checks and a lower lag at 4,000, in every round measured; 50 was no cheaper at 1,000 and ran
   * later at 80 % of saturation, its bursts filling the cap sooner (figures in docs/performance.md).
   * A check's runs stay on their grid, never late because of this and never started in a whole
   * second before their own (the fleet's slot, grid.ts secondEnd), and 30 ms early is far inside
   * any interval the server can set.
   */
  runBatchMs: 30,
  /**
   * From this many runs a second (all checks together) probes run in a thread of their own. Below
   * it one thread is cheaper: at 1,000 a second the probe thread saves no CPU and costs a second
   * V8 heap's memory (issue 26, figures in docs/performance.md); at 2,000 it was cheaper, and it
   * lifted the most the agent keeps up with from ~2,700 to ~3,600-4,400 runs a second (2-core
   * machine; issue 14, probes/probe-thread.ts). A desktop with hundreds of checks never reaches it.
   */
  probeThreadFromRunsPerSec: 1_500,
  /** New checks (and every check at start-up) first run within this window, spread by guid. */
  startupSpreadMs: 5_000,
  /** Results kept per check for the UI: about 5 hours at a 60 s interval. */
  historySlots: 300,
  /**
   * The outbox bound. At ~300 bytes a result, 500,000 results (~150 MB) hold a week-long
   * outage of 50 checks a minute; beyond it the oldest go first and are counted.
   */
  outboxMaxCount: 500_000,
  outboxMaxBytes: 256 * 1024 * 1024,
  /** On stop, runs in flight get this long to finish before they are cancelled. */
  stopGraceMs: 5_000,
  /** A stopping agent tries one last upload for at most this long. */
  finalUploadMs: 5_000,
  /**
   * Extra connectivity targets ("host:port") besides the server. None by default: the agent
   * never sends traffic anywhere the user did not name.
   */
  connectivityTargets: [] as string[],
  /** A connect to a connectivity target that takes longer than this counts as unreachable. */
  connectivityTimeoutMs: 3_000,
  /** While offline, connectivity is probed this often, so the outage end is known within seconds. */
  offlineProbeMs: 5_000,
  /**
   * The wall clock moving against the monotonic one, or a timer firing this much later than it
   * asked, means the machine slept or the clock was stepped: the grid is rebased on now. Well
   * above event-loop lag under load (tens of ms), well below any sleep worth noticing.
   */
  clockJumpThresholdMs: 5_000,
  /**
   * How often the clocks are compared when nothing else asks, on the housekeeping grid. A sleep
   * is seen sooner anyway: after a wake-up on Windows every timer is overdue and fires at once,
   * and elsewhere the wall clock's jump against the monotonic one is read whenever it matters
   * (schedule/wake.ts: before a failed run is judged, and at the scheduler's next timer).
   */
  clockWatchMs: housekeepingGridMs,
  /**
   * After a wake-up, failures with nothing back count as offline for this long: Wi-Fi, DHCP and
   * DNS take seconds to tens of seconds to come back, and a run then says nothing about its target.
   */
  wakeGraceMs: 30_000,
  /** A key file written by `uptime-agent enroll` settles (a write is several events) this long. */
  keyFileSettleMs: 250,
  /**
   * Behind the folder watch, the key file is also checked this often (network file systems,
   * where the watch can miss a change), on the housekeeping grid.
   */
  keyFilePollMs: housekeepingGridMs,
  /** Network and 5xx failures: retry soon, then back off to five minutes at most. */
  retryBackoff: { baseMs: 2_000, maxMs: 300_000, factor: 2, jitter: 0.5 } satisfies BackoffPolicy,
};

export type AgentTunables = typeof agentDefaults;
