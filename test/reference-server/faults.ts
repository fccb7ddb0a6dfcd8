// Programmable misbehaviour, so agent tests can see every kind of bad day: error statuses,
// bodies that are not JSON or not the schema or far too large, slow or missing answers and
// dropped connections. A fault matches one endpoint (or all five) and lasts for a number of
// calls, a time window (by the server's clock), both, or until cancelled.
import type { Endpoint } from './routes/table.ts';
import type { Reply } from './http/reply.ts';

export type FaultAction =
  /** Answer this status and body instead (body defaults to a one-line text). */
  | { kind: 'status'; status: number; body?: string; contentType?: string }
  /** 200 with a JSON content type and a body that does not parse. */
  | { kind: 'invalid-json' }
  /** 200 with JSON that parses but violates every response schema of the wire API. */
  | { kind: 'schema-violation' }
  /** 200 with a syntactically valid JSON body of `bytes` bytes (default 16 MiB). */
  | { kind: 'huge-body'; bytes?: number }
  /** Wait `ms` (server clock not involved: real time), then answer normally. */
  | { kind: 'delay'; ms: number }
  /** Never answer; the request stays open until the client gives up or the server stops. */
  | { kind: 'hang' }
  /** Destroy the connection without an answer. */
  | { kind: 'reset' };

export interface FaultOptions {
  /** One endpoint, or all five when absent or '*'. */
  endpoint?: Endpoint | '*';
  /** How many matching calls it shapes; unlimited when absent. */
  times?: number;
  /** How long it lasts from injection, by the server's `now()`; unlimited when absent. */
  forMs?: number;
  /**
   * Run the real operation first (its effects persist), then answer the fault: a lost answer,
   * e.g. results stored but the agent sees a 502 and retries.
   */
  afterHandling?: boolean;
}

export interface FaultSpec extends FaultOptions {
  action: FaultAction;
}

export interface FaultHandle {
  /** Calls shaped so far. */
  readonly hits: number;
  /** False once used up, expired or cancelled. */
  readonly active: boolean;
  cancel(): void;
}

export interface ActiveFault {
  spec: FaultSpec;
  label: string;
}

export interface FaultRegistry {
  inject(spec: FaultSpec): FaultHandle;
  /** The first live fault for this endpoint, counted as a hit; undefined when none. */
  take(endpoint: Endpoint): ActiveFault | undefined;
  clear(): void;
  active(): FaultSpec[];
}

interface Entry {
  spec: FaultSpec;
  hits: number;
  untilMs: number;
  cancelled: boolean;
}

export function createFaultRegistry(now: () => Date): FaultRegistry {
  let entries: Entry[] = [];
  const live = (e: Entry): boolean =>
    !e.cancelled && (e.spec.times === undefined || e.hits < e.spec.times) && now().getTime() < e.untilMs;
  const prune = () => {
    entries = entries.filter(live);
  };
  return {
    inject(spec) {
      if (spec.times !== undefined && (!Number.isInteger(spec.times) || spec.times < 1)) {
        throw new Error('fault: times must be a positive integer');
      }
      const entry: Entry = {
        spec,
        hits: 0,
        untilMs: spec.forMs === undefined ? Infinity : now().getTime() + spec.forMs,
        cancelled: false,
      };
      entries.push(entry);
      return {
        get hits() {
          return entry.hits;
        },
        get active() {
          return live(entry);
        },
        cancel() {
          entry.cancelled = true;
          prune();
        },
      };
    },
    take(endpoint) {
      prune();
      const entry = entries.find(
        (e) => e.spec.endpoint === undefined || e.spec.endpoint === '*' || e.spec.endpoint === endpoint,
      );
      if (!entry) return undefined;
      entry.hits++;
      return { spec: entry.spec, label: describe(entry.spec) };
    },
    clear() {
      entries = [];
    },
    active() {
      prune();
      return entries.map((e) => e.spec);
    },
  };
}

function describe(spec: FaultSpec): string {
  const { action } = spec;
  const what = action.kind === 'status' ? `status ${action.status}` : action.kind;
  return spec.afterHandling === true ? `${what} after handling` : what;
}

/** Wrong type for every field any wire response requires. */
const schemaViolation = {
  checks: 'not-an-array',
  server_time: 42,
  api_key: 42,
  monitor_id: ['not', 'a', 'string'],
  accepted: 'many',
  status: { not: 'a string' },
};

/** The reply a body-shaping fault answers; undefined for delay, hang and reset. */
export function faultReply(action: FaultAction): Reply | undefined {
  const jsonHeaders = { 'content-type': 'application/json' };
  switch (action.kind) {
    case 'status':
      return {
        status: action.status,
        headers: { 'content-type': action.contentType ?? 'text/plain; charset=utf-8' },
        body: action.body ?? `injected fault: status ${action.status}\n`,
      };
    case 'invalid-json':
      return { status: 200, headers: jsonHeaders, body: '{"checks": [{"guid": "trunc' };
    case 'schema-violation':
      return { status: 200, headers: jsonHeaders, body: JSON.stringify(schemaViolation) };
    case 'huge-body': {
      const size = Math.max(action.bytes ?? 16 * 1024 * 1024, 16);
      const body = Buffer.alloc(size, 'a');
      body.write('{"padding":"', 0);
      body.write('"}', size - 2);
      return { status: 200, headers: jsonHeaders, body };
    }
    default:
      return undefined;
  }
}
