// What every probe run shares: the deadline, the clocks, and how a failure becomes a reason.
import type { CheckDefinition } from '../wire/schemas.ts';
import { answeredAt, timingsOf, type ConnectionTrace } from './trace.ts';
import { localFaultOf } from '../base/local-fault.ts';
import { probeDefaults } from './defaults.ts';
import { cancelledError, describeError, errorAnswered, errorRule, timedOut } from './errors.ts';
import type { DecidingRule, ProbeContext, ProbeOutcome, Run, SampleKind } from './types.ts';

export type { Run, Stoppable } from './types.ts';
const { rootCertificates } = process.getBuiltinModule('node:tls');

/** timeout_sec as the wire defines it: 0/absent/negative = default, capped at the maximum. */
export function effectiveTimeoutSec(timeoutSec: number | undefined): number {
  if (timeoutSec === undefined || timeoutSec <= 0) return probeDefaults.timeoutSec;
  return Math.min(timeoutSec, probeDefaults.maxTimeoutSec);
}

/**
 * The runs following each caller signal (the scheduler's one stop signal): one 'abort' listener
 * per signal that fans out, not one per run. An AbortSignal scans its whole listener list on
 * every add and remove, and hundreds of runs in flight share the scheduler's.
 */
const followers = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls onAbort when outer aborts; returns the function that stops following. */
export function follow(outer: AbortSignal, onAbort: () => void): () => void {
  let runs = followers.get(outer);
  if (runs === undefined) {
    const set = new Set<() => void>();
    outer.addEventListener(
      'abort',
      () => {
        for (const abort of set) abort();
        set.clear();
      },
      { once: true },
    );
    followers.set(outer, set);
    runs = set;
  }
  const following = runs;
  following.add(onAbort);
  return () => following.delete(onAbort);
}

export function startRun(def: CheckDefinition, ctx: ProbeContext): Run {
  const now = ctx.now ?? (() => performance.now());
  const timeoutSec = effectiveTimeoutSec(def.timeout_sec);
  const timeoutMs = timeoutSec * 1000;
  /** Set once, when the run stops: whether and why it stopped are this one fact. */
  let stopReason: Error | undefined;
  let watchers: ((reason: Error) => void)[] = [];
  let deadlinePassed = false;
  const stop = (given: unknown): void => {
    if (stopReason !== undefined) return;
    // An Error whatever the caller aborted with: sockets are destroyed with it and waits reject with it.
    const reason = given instanceof Error ? given : new Error('the run was stopped', { cause: given });
    stopReason = reason;
    const stopping = watchers;
    watchers = [];
    for (const onStopped of stopping) onStopped(reason);
  };
  const timer = setTimeout(() => {
    deadlinePassed = true;
    stop(new DOMException(timedOut(timeoutSec), 'TimeoutError'));
  }, timeoutMs);
  const outer = ctx.signal;
  let unfollow: (() => void) | undefined;
  if (outer?.aborted === true) stop(outer.reason);
  else if (outer !== undefined) unfollow = follow(outer, () => stop(outer.reason));
  const startedAt = now();
  const cancelled = (): boolean => ctx.signal?.aborted === true;
  return {
    stopped: () => stopReason !== undefined,
    stopReason: () => stopReason,
    onStop(onStopped) {
      if (stopReason !== undefined) {
        onStopped(stopReason);
        return () => undefined;
      }
      watchers.push(onStopped);
      return () => {
        const at = watchers.indexOf(onStopped);
        if (at >= 0) watchers.splice(at, 1);
      };
    },
    timeoutSec,
    timeoutMs,
    now,
    wallClock: ctx.wallClock ?? (() => new Date()),
    startedAt,
    // Whatever result_detail_max_chars says: one result must always fit one upload call.
    sampleChars: Math.max(
      0,
      Math.floor(Math.min(ctx.sampleChars ?? probeDefaults.sampleChars, probeDefaults.maxSampleChars)),
    ),
    // Passing `ca` replaces the default roots, so the bundled ones are listed too.
    ca: ctx.ca === undefined || ctx.ca.length === 0 ? undefined : [...rootCertificates, ...ctx.ca],
    egressPolicy: ctx.egressPolicy ?? 'open',
    resolver: ctx.resolve,
    proxy: ctx.proxy,
    latencyAt: (t) => Math.max(1, Math.ceil(t - startedAt)),
    elapsed: () => Math.max(0, Math.ceil(now() - startedAt)),
    reason(err, host) {
      if (cancelled()) return cancelledError;
      if (deadlinePassed) return timedOut(timeoutSec);
      return describeError(err, host);
    },
    rule(err) {
      if (cancelled()) return 'cancelled';
      if (deadlinePassed) return 'timeout';
      return errorRule(err);
    },
    cancelled,
    finish() {
      clearTimeout(timer);
      unfollow?.();
      watchers = [];
    },
  };
}

/** Runs body with a fresh Run and always finishes it. */
export async function withRun(
  def: CheckDefinition,
  ctx: ProbeContext,
  body: (run: Run) => Promise<ProbeOutcome>,
): Promise<ProbeOutcome> {
  const run = startRun(def, ctx);
  try {
    return await body(run);
  } finally {
    run.finish();
  }
}

export interface Observed {
  httpStatus?: number;
  latencyMs: number;
  /** Empty means success. */
  error: string;
  /** The rule behind `error`; absent = 'all-rules' on success. */
  rule?: DecidingRule;
  responseSample?: string;
  sampleKind?: SampleKind;
  /** Set when the trace alone cannot tell (a refusal, an earlier redirect answer). */
  answered?: boolean;
}

/** The outcome of a run that reached the network: what was observed plus the trace's facts. */
export function outcomeOf(run: Run, trace: ConnectionTrace, observed: Observed): ProbeOutcome {
  const cancelled = run.cancelled();
  const answered =
    observed.answered === true ||
    observed.latencyMs > 0 ||
    trace.connectedAt !== undefined ||
    answeredAt(trace) !== undefined;
  return {
    success: observed.error === '',
    httpStatus: observed.httpStatus ?? 0,
    latencyMs: observed.latencyMs,
    answered,
    decidedBy: cancelled ? 'cancelled' : observed.error === '' ? 'all-rules' : (observed.rule ?? 'connection'),
    error: observed.error,
    responseSample: observed.responseSample ?? '',
    ...(observed.sampleKind === undefined ? {} : { sampleKind: observed.sampleKind }),
    timings: timingsOf(trace, run.elapsed()),
    ...(trace.certificate === undefined ? {} : { certificate: trace.certificate }),
    ...(trace.viaProxy === undefined ? {} : { viaProxy: trace.viaProxy }),
    ...(cancelled ? { cancelled: true } : {}),
  };
}

/**
 * An outcome for a run whose connection failed with `err`. Latency stays 0 unless bytes came
 * back (a plain service answering a TLS handshake); `answered` also counts a refusal, a reset
 * and a "no such name" DNS answer, which prove the network works.
 */
export function failure(run: Run, err: unknown, host: string, trace: ConnectionTrace, earlier?: number): ProbeOutcome {
  const at = answeredAt(trace) ?? earlier;
  const outcome = outcomeOf(run, trace, {
    latencyMs: at === undefined ? 0 : run.latencyAt(at),
    error: run.reason(err, host),
    rule: run.rule(err),
    answered: !run.cancelled() && errorAnswered(err),
  });
  const localFault = run.cancelled() ? undefined : localFaultOf(err);
  return localFault === undefined ? outcome : { ...outcome, localFault };
}

/** An outcome for a check that cannot run as defined; no network traffic happened. */
export function invalidDefinition(error: string): ProbeOutcome {
  return {
    success: false,
    httpStatus: 0,
    latencyMs: 0,
    answered: false,
    decidedBy: 'definition',
    error,
    responseSample: '',
    invalidDefinition: true,
  };
}
