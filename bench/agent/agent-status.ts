// The agent's own figures for the bench: `uptime-agent status --json` (another process, as a user
// would run it) read at both ends of the window. Its load sample gives the runs executed and
// skipped since `run` started and the schedule lag p99 over the last minute; two readings give
// what was due, executed and missed between their samples.
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface AgentStatus {
  runsExecuted: number;
  skippedOverlap: number;
  skippedBacklog: number;
  /** Of the runs executed, those that waited for a free slot under the concurrency cap first. */
  waitedForSlot: number;
  /** The cap on runs at once at the agent's last load sample (agentDefaults.concurrency, or down to busyConcurrency while its probe thread is busy). */
  runCap: number | null;
  lagP99Ms: number | null;
  overloaded: boolean;
  unsent: number;
  /** Wall-clock ms of the agent's load sample; undefined when the agent has not sampled yet. */
  sampledAt: number | undefined;
  /** How long `status --json` took, and the size of its answer. */
  tookMs: number;
  bytes: number;
}

export type StatusReading = { ok: true; value: AgentStatus } | { ok: false; why: string };

// The document lists every check with its last result: about 3 MB at 6,000 checks, well past the
// 1 MiB that child_process buffers by default (which is why it once read as "unavailable").
const maxBuffer = 256 * 1024 * 1024;
const timeoutMs = 60_000;

/** The line of stderr that says what happened: the command's own one-line reason, or a crash's error line. */
function reason(stderr: string): string {
  const lines = stderr.trim().split('\n');
  return (
    lines.find((l) => l.startsWith('status:')) ??
    lines.find((l) => /^\w*Error\b/.test(l)) ??
    lines[0] ??
    '(nothing on stderr)'
  );
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function readStatus(cli: string, dataDir: string, env: NodeJS.ProcessEnv): Promise<StatusReading> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      cli,
      ['status', '--json', '--data-dir', dataDir],
      { env, encoding: 'utf8', maxBuffer, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const tookMs = performance.now() - started;
        if (error !== null) {
          const why =
            error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
              ? `its answer passed ${maxBuffer / 1024 / 1024} MiB`
              : error.killed
                ? `no answer within ${timeoutMs / 1000} s`
                : `exit ${String(error.code)}: ${reason(stderr)}`;
          resolve({ ok: false, why: `status --json failed after ${(tookMs / 1000).toFixed(1)} s: ${why}` });
          return;
        }
        try {
          const doc = JSON.parse(stdout) as Record<string, unknown>;
          const sampled = typeof doc.load_sampled_at === 'string' ? Date.parse(doc.load_sampled_at) : Number.NaN;
          resolve({
            ok: true,
            value: {
              runsExecuted: num(doc.runs_executed),
              skippedOverlap: num(doc.skipped_overlap),
              skippedBacklog: num(doc.skipped_backlog),
              waitedForSlot: num(doc.runs_waited_for_slot),
              runCap: typeof doc.run_cap === 'number' ? doc.run_cap : null,
              lagP99Ms: typeof doc.schedule_lag_p99_ms === 'number' ? doc.schedule_lag_p99_ms : null,
              overloaded: doc.overloaded === true,
              unsent: num(doc.unsent_results),
              sampledAt: Number.isNaN(sampled) ? undefined : sampled,
              tookMs,
              bytes: Buffer.byteLength(stdout),
            },
          });
        } catch {
          resolve({ ok: false, why: 'status --json printed something that is not JSON' });
        }
      },
    );
  });
}

/** Runs due, executed and missed between two readings (of the agent's samples, not of the window's edges). */
export interface ScheduleFigures {
  intervalS: number;
  due: number;
  executed: number;
  missedOverlap: number;
  missedBacklog: number;
  /** Of `executed`, the runs that started only after waiting for a free slot (their wait is lag). */
  waitedForSlot: number;
  /** The later reading's cap on runs at once. */
  runCap: number | null;
  /** The later reading's lag p99 (the last minute up to its sample). */
  lagP99Ms: number | null;
  overloaded: boolean;
}

/** Runs skipped in the window, for either reason: what the goals and every table count as missed. */
export const missedRuns = (s: ScheduleFigures): number => s.missedOverlap + s.missedBacklog;

export function scheduleBetween(before: AgentStatus, after: AgentStatus): ScheduleFigures | string {
  if (before.sampledAt === undefined || after.sampledAt === undefined) return 'the agent had no load sample yet';
  if (after.sampledAt <= before.sampledAt) return 'the agent took no new load sample during the window';
  const executed = after.runsExecuted - before.runsExecuted;
  const missedOverlap = after.skippedOverlap - before.skippedOverlap;
  const missedBacklog = after.skippedBacklog - before.skippedBacklog;
  return {
    intervalS: (after.sampledAt - before.sampledAt) / 1000,
    due: executed + missedOverlap + missedBacklog,
    executed,
    missedOverlap,
    missedBacklog,
    waitedForSlot: after.waitedForSlot - before.waitedForSlot,
    runCap: after.runCap,
    lagP99Ms: after.lagP99Ms,
    overloaded: after.overloaded,
  };
}
