// What every probe run shares: the deadline, the clocks, and how a failure becomes a reason.
import type { SecureContext } from 'node:tls';
import type { CheckDefinition } from '../wire/schemas.ts';
import { answeredAt, timingsOf, type ConnectionTrace } from './trace.ts';
import { localFaultOf } from '../base/local-fault.ts';
import { trustContext } from '../base/trusted-roots.ts';
import { probeDefaults } from './defaults.ts';
import { cancelledError, describeError, errorAnswered, errorRule, timedOut } from './errors.ts';
import type {
  CheckProxy,
  DecidingRule,
  EgressPolicy,
  ProbeContext,
  ProbeOutcome,
  Resolver,
  Run,
  SampleKind,
} from './types.ts';

export type { Run, Stoppable } from './types.ts';

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

/** The deadline's timer calls this with the run: no closure per run. */
function onDeadline(run: ProbeRun): void {
  run.passDeadline();
}

/**
 * One run's state. A class rather than an object of closures: a run in flight outlives a
 * scavenge or two near a batch of runs, and fourteen closures a run were most of what the main
 * thread promoted into V8's old generation at 1,000 checks (docs/performance.md "Memory added by checks").
 */
class ProbeRun implements Run {
  readonly timeoutSec: number;
  readonly timeoutMs: number;
  readonly now: () => number;
  readonly wallClock: () => Date;
  readonly startedAt: number;
  readonly sampleChars: number;
  readonly trust: SecureContext;
  readonly egressPolicy: EgressPolicy;
  readonly resolver: Resolver | undefined;
  readonly proxy: CheckProxy | undefined;
  /** Set once, when the run stops: whether and why it stopped are this one fact. */
  #stopReason: Error | undefined;
  #watchers: ((reason: Error) => void)[] = [];
  #deadlinePassed = false;
  readonly #signal: AbortSignal | undefined;
  readonly #timer: NodeJS.Timeout;
  #unfollow: (() => void) | undefined;

  constructor(def: CheckDefinition, ctx: ProbeContext) {
    this.now = ctx.now ?? performanceNow;
    this.timeoutSec = effectiveTimeoutSec(def.timeout_sec);
    this.timeoutMs = this.timeoutSec * 1000;
    this.wallClock = ctx.wallClock ?? wallNow;
    // Whatever result_detail_max_chars says: one result must always fit one upload call.
    this.sampleChars = Math.max(
      0,
      Math.floor(Math.min(ctx.sampleChars ?? probeDefaults.sampleChars, probeDefaults.maxSampleChars)),
    );
    this.trust = trustContext(ctx.ca);
    this.egressPolicy = ctx.egressPolicy ?? 'open';
    this.resolver = ctx.resolve;
    this.proxy = ctx.proxy;
    this.#signal = ctx.signal;
    this.#timer = setTimeout(onDeadline, this.timeoutMs, this);
    const outer = ctx.signal;
    if (outer?.aborted === true) this.#stop(outer.reason);
    else if (outer !== undefined) this.#unfollow = follow(outer, () => this.#stop(outer.reason));
    this.startedAt = this.now();
  }

  /** The run's deadline passed (its timer, onDeadline): it stops with a TimeoutError. */
  passDeadline(): void {
    this.#deadlinePassed = true;
    this.#stop(new DOMException(timedOut(this.timeoutSec), 'TimeoutError'));
  }

  #stop(given: unknown): void {
    if (this.#stopReason !== undefined) return;
    // An Error whatever the caller aborted with: sockets are destroyed with it and waits reject with it.
    const reason = given instanceof Error ? given : new Error('the run was stopped', { cause: given });
    this.#stopReason = reason;
    const stopping = this.#watchers;
    this.#watchers = [];
    for (const onStopped of stopping) onStopped(reason);
  }

  stopped(): boolean {
    return this.#stopReason !== undefined;
  }

  stopReason(): Error | undefined {
    return this.#stopReason;
  }

  onStop(onStopped: (reason: Error) => void): () => void {
    if (this.#stopReason !== undefined) {
      onStopped(this.#stopReason);
      return () => undefined;
    }
    this.#watchers.push(onStopped);
    return () => {
      const at = this.#watchers.indexOf(onStopped);
      if (at >= 0) this.#watchers.splice(at, 1);
    };
  }

  latencyAt(t: number): number {
    return Math.max(1, Math.ceil(t - this.startedAt));
  }

  elapsed(): number {
    return Math.max(0, Math.ceil(this.now() - this.startedAt));
  }

  cancelled(): boolean {
    return this.#signal?.aborted === true;
  }

  reason(err: unknown, host: string): string {
    if (this.cancelled()) return cancelledError;
    if (this.#deadlinePassed) return timedOut(this.timeoutSec);
    return describeError(err, host);
  }

  rule(err: unknown): DecidingRule {
    if (this.cancelled()) return 'cancelled';
    if (this.#deadlinePassed) return 'timeout';
    return errorRule(err);
  }

  finish(): void {
    clearTimeout(this.#timer);
    this.#unfollow?.();
    this.#watchers = [];
  }
}

const performanceNow = (): number => performance.now();
const wallNow = (): Date => new Date();

export function startRun(def: CheckDefinition, ctx: ProbeContext): Run {
  return new ProbeRun(def, ctx);
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
