// The one signature every probe implements, and the typed outcome it returns.
import type { SecureContext } from 'node:tls';
import type { CheckDefinition } from '../wire/schemas.ts';
import type { LocalFault } from '../base/local-fault.ts';
import type { EgressPolicy } from './egress.ts';

export type { EgressPolicy } from './egress.ts';
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name resolution: all addresses of a host name, in the order they should be tried. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** A proxy the user opted checks into; `noProxy` lists targets that still dial directly. */
export interface CheckProxy {
  /** http:// or https:// proxy URL, optionally with basic credentials. */
  url: string;
  /** NO_PROXY syntax: host names, domain suffixes, IPs, optional :port, or "*". */
  noProxy?: string;
}

export interface ProbeContext {
  /** External cancellation (agent stop). A cancelled run returns `cancelled: true`. */
  signal?: AbortSignal;
  /** Monotonic clock in ms for latency and timings; injectable so tests can steer it. */
  now?: () => number;
  /** Wall clock for certificate expiry (days left); injectable for tests. */
  wallClock?: () => Date;
  /**
   * Extra trusted CA certificates (PEM), trusted in addition to what Node trusts by default. Runs
   * share one TLS context per list (base/trusted-roots.ts): pass the same array while it holds.
   */
  ca?: string[];
  /**
   * Code points of body/banner the caller keeps as response_sample (result_detail_max_chars).
   * 0 means no sample is wanted: the body is then only read when something must be matched.
   * Absent means probeDefaults.sampleChars.
   */
  sampleChars?: number;
  /**
   * 'strict' refuses what the server's own agent refuses (egress.ts: internal names before
   * lookup, internal and reserved addresses after it), pinning each connection to the checked
   * addresses. Absent = 'open'.
   */
  egressPolicy?: EgressPolicy;
  /** Name resolution for targets; absent = the system resolver. Injectable for tests. */
  resolve?: Resolver;
  /** Send checks through this proxy (CONNECT tunnel for every scheme); absent = dial directly. */
  proxy?: CheckProxy;
}

/**
 * The rule that decided the verdict. 'all-rules' is a pass with every rule satisfied; the
 * others name what failed (or, with 'inverted', that invert_result flipped the verdict).
 */
export type DecidingRule =
  | 'all-rules'
  | 'status'
  | 'match'
  | 'response-time'
  | 'certificate'
  | 'inverted'
  | 'connection'
  | 'timeout'
  | 'redirect'
  | 'body'
  | 'egress-policy'
  | 'definition'
  | 'cancelled';

/** Phase timings in ms, each rounded up. Absent phases did not happen (e.g. dns for an IP). */
export interface ProbeTimings {
  dnsMs?: number;
  connectMs?: number;
  tlsMs?: number;
  /** From the connection being ready to the first byte the target sent. */
  firstByteMs?: number;
  /** The whole run, including redirects and body reading. */
  totalMs: number;
}

export interface CertificateInfo {
  /** Distinguished name as the server's own agent writes it: most specific first, "CN=x,O=y,C=z". */
  subject: string;
  issuer: string;
  /** Expiry as ISO 8601 without fractions (e.g. "2027-01-01T00:00:00Z"). */
  validTo: string;
  /** Whole days left before expiry (floor); negative once expired. */
  daysLeft: number;
}

/** What a response sample holds: a body, a tcp banner, a tls certificate summary. */
export type SampleKind = 'body' | 'banner' | 'certificate';

export interface ProbeOutcome {
  success: boolean;
  /** HTTP status of the evaluated response; 0 for tcp/tls and when no response arrived. */
  httpStatus: number;
  /** Start to response headers (tcp: connect, tls: handshake), rounded up; 0 = nothing came back. */
  latencyMs: number;
  /**
   * The target sent anything back: a completed TCP connect (even if it then hangs or resets), a
   * refusal, an HTTP status, a TLS alert, a banner, or a DNS "no such name" answer. False only
   * for failures before any answer (connect timeout, unreachable, DNS without an answer, a run
   * refused before any traffic), which alone may be blamed on this machine being offline.
   */
  answered: boolean;
  /**
   * The verdict before invert_result flipped it; present only when it did. The offline policy
   * judges this raw fact with `answered` (a run that got no answer is no pass, inverted or not).
   */
  rawSuccess?: boolean;
  /**
   * The run failed because this machine ran out of something (descriptors, memory, buffers): no
   * verdict about the target, never "no answer", never inverted (base/local-fault.ts).
   */
  localFault?: LocalFault;
  /** Which rule decided the verdict. */
  decidedBy: DecidingRule;
  /** Empty on success. Bounded (probeDefaults.maxErrorChars); the caller caps it further. */
  error: string;
  /**
   * Leading body or banner text (tls: certificate summary), decoded and cleaned, at most
   * min(sampleChars, probeDefaults.maxSampleChars) code points.
   */
  responseSample: string;
  /** What responseSample holds; privacy rules depend on it (a banner describes the target). */
  sampleKind?: SampleKind;
  timings?: ProbeTimings;
  certificate?: CertificateInfo;
  /** Local detail, never uploaded: the run went through this proxy (credentials masked). */
  viaProxy?: string;
  /**
   * The check itself is unusable (bad URL, unknown operator, too many headers...). Such an
   * outcome always fails, even with invert_result: a broken check must never pass silently.
   */
  invalidDefinition?: boolean;
  /** The run was stopped by ctx.signal; not a verdict about the target, never inverted. */
  cancelled?: boolean;
}

export type Probe = (def: CheckDefinition, ctx: ProbeContext) => Promise<ProbeOutcome>;

/**
 * What a wait on the network gives up on: the run's deadline or its caller stopping. A plain
 * callback list, not an AbortSignal: an AbortController per run, and Node's signal plumbing in
 * every request and wait it was passed to, were ~8 % of the allocations of a run (issue 14).
 */
export interface Stoppable {
  /** Whether the deadline passed or the caller stopped the run. */
  stopped(): boolean;
  /** Why it stopped: the deadline's TimeoutError or the caller's reason, always as an Error. */
  stopReason(): Error | undefined;
  /**
   * Calls `onStopped` when the run stops (at once when it already has); the returned function
   * stops watching. A finished run drops every watcher.
   */
  onStop(onStopped: (reason: Error) => void): () => void;
}

export interface Run extends Stoppable {
  timeoutSec: number;
  /** The deadline in ms after startedAt, for timers that must not outlive the run. */
  timeoutMs: number;
  now: () => number;
  wallClock: () => Date;
  startedAt: number;
  sampleChars: number;
  /** The TLS context its connections trust (Node's default, plus the extra CAs when given). */
  trust: SecureContext;
  egressPolicy: EgressPolicy;
  /** Injected name resolution; undefined = let net.connect resolve (unless the policy is strict). */
  resolver: Resolver | undefined;
  proxy: CheckProxy | undefined;
  /** ms from the start to `t`, rounded up and at least 1: something came back. */
  latencyAt(t: number): number;
  /** ms the run has taken so far, rounded up. */
  elapsed(): number;
  /** The reason for a failure: cancellation and the deadline win over the error they caused. */
  reason(err: unknown, host: string): string;
  /** The rule a failure belongs to, with the same precedence as reason(). */
  rule(err: unknown): DecidingRule;
  cancelled(): boolean;
  /**
   * Releases the deadline timer and the link to the caller's signal. Without it each finished
   * run would stay reachable (its connection, parser and buffers) until its deadline passed:
   * at 500 runs a second and a 10 s timeout, thousands of dead runs at once.
   */
  finish(): void;
}
