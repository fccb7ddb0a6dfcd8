// The one IPC contract between the agent host (Electron main, or the web dashboard) and the
// renderer. Main validates every argument against these schemas; the preload and the web bridge
// expose exactly `AgentBridge`; the renderer talks to nothing else. Types only flow one way from
// the agent (type imports are erased); of the agent's code the renderer bundles only the pure
// data this file re-exports (input limits, the loops' default intervals), so each is written once.
import type { IpcError } from './ipc-error.ts';
import { z } from 'zod';
import { inputLimits } from '../agent/base/input-limits.ts';
import { agentDefaults } from '../agent/defaults.ts';
import type { TestRunResult } from '../agent/read/check-insight.ts';
import type { CheckWindow } from '../agent/read/check-window.ts';
import type { AgentSnapshot } from '../agent/read/snapshot.ts';
import type { EnrollOutcome } from '../agent/identity/enrollment.ts';
import type { FailureFacts } from '../agent/wire/failure.ts';
import type { AgentEvent } from '../agent/store/events.ts';
import type { CheckTransition } from '../agent/runs/transitions.ts';
import type { HistoryEntry } from '../agent/store/history.ts';
import type { OutageRecord } from '../agent/store/results-view.ts';
import type { ServerAbsence } from '../agent/store/server-absences.ts';
import type { CheckDefinition } from '../agent/wire/schemas.ts';

export { inputLimits };

/** The loops' intervals when nothing sets them, in the seconds the settings use (the window shows them). */
export const intervalDefaultsSec = {
  syncSec: agentDefaults.syncIntervalMs / 1000,
  uploadSec: agentDefaults.uploadIntervalMs / 1000,
  statusSec: agentDefaults.statusIntervalMs / 1000,
  pingSec: agentDefaults.pingIntervalMs / 1000,
};
export type { AgentSnapshot, CheckView, Problem, ProblemKind, CheckHealth, CheckType } from '../agent/read/snapshot.ts';
export type { EnrollFailure, EnrollFailureKind, EnrollField, FieldProblem } from '../agent/identity/enrollment.ts';
export type { ApiErrorKind, FailureCause, FailureFacts } from '../agent/wire/failure.ts';
export type { ConnectionState, ConnectionStateName } from '../agent/live/state.ts';
export type { CheckTransition } from '../agent/runs/transitions.ts';
export type { HistoryEntry } from '../agent/store/history.ts';
export type { AgentEvent } from '../agent/store/events.ts';
export type { RollupBucket, WindowCounts } from '../agent/store/rollups.ts';
export type { CheckWindow, WindowRange } from '../agent/read/check-window.ts';
export type { RunExplanation } from '../agent/read/run-explanation.ts';
export type { TestRunRefusal, TestRunResult } from '../agent/read/check-insight.ts';
export type { OutageRecord } from '../agent/store/results-view.ts';
export type { AbsenceEnd, AbsenceFailure, ServerAbsence } from '../agent/store/server-absences.ts';

const text = (max: number) => z.string().trim().max(max);
const seconds = z.number().min(inputLimits.intervalSec.min).max(inputLimits.intervalSec.max);
const placeText = text(inputLimits.enrollFieldChars);

/** The shell's settings; headless hosts keep the same shape in a JSON file. */
export const settingsSchema = z.object({
  serverUrl: text(2000).default(''),
  monitorName: placeText.default(''),
  region: placeText.default(''),
  country: placeText.default(''),
  city: placeText.default(''),
  privateChecksFile: text(4096).optional(),
  notifications: z.boolean().default(true),
  launchAtLogin: z.boolean().default(false),
  intervals: z
    .object({ syncSec: seconds, uploadSec: seconds, statusSec: seconds, pingSec: seconds })
    .partial()
    .default({}),
  /** Extra "host:port" targets the agent connects to when deciding whether it is offline. */
  connectivityTargets: z.array(text(300)).max(inputLimits.connectivityTargets).default([]),
  /** The unsent-results bound; beyond it the oldest results go first (and are counted). */
  outboxLimits: z
    .object({
      maxResults: z.number().int().min(inputLimits.outboxResults.min).max(inputLimits.outboxResults.max),
      maxMegabytes: z.number().int().min(inputLimits.outboxMegabytes.min).max(inputLimits.outboxMegabytes.max),
    })
    .partial()
    .default({}),
  /**
   * Office networks (README "Office networks"). The proxy for the agent's own traffic to the
   * server; it wins over HTTPS_PROXY/HTTP_PROXY. May hold credentials: shown masked, never logged.
   */
  proxyUrl: text(2000).optional(),
  /** Checks dial their targets directly unless this sends them through the proxy too. */
  checksUseProxy: z.boolean().default(false),
  /** PEM bundles trusted in addition to the system roots: for the server, and for checks. */
  serverCaFile: text(4096).optional(),
  checksCaFile: text(4096).optional(),
  /** strict: checks may not reach private, loopback, link-local... addresses (shared fleets). */
  egressPolicy: z.enum(['open', 'strict']).default('open'),
});
export type Settings = z.infer<typeof settingsSchema>;
export const settingsPatchSchema = settingsSchema.partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

const enrollFields = {
  server: text(2000),
  /** Pasted: trimmed here, never logged, never echoed back. */
  token: text(10_000),
  name: placeText,
  region: placeText,
  country: placeText,
  city: placeText,
  allowInsecureHttp: z.boolean().optional(),
  /** The enroll dialog's advanced part; given values are saved to the settings. */
  proxyUrl: text(2000).optional(),
  serverCaFile: text(4096).optional(),
  egressPolicy: z.enum(['open', 'strict']).optional(),
};

const none = z.object({}).strict();

/** Every command and query: its argument schema. Results are typed in `InvokeResults`. */
export const invokeArgs = {
  'agent:snapshot': none,
  'agent:enroll': z.object(enrollFields).strict(),
  'agent:reclaim': z.object({ ...enrollFields, monitorId: text(40).min(1) }).strict(),
  'agent:sync-now': none,
  'agent:upload-now': none,
  'agent:resend-set-aside': none,
  'agent:pause': none,
  'agent:resume': none,
  'agent:forget': none,
  'checks:history': z
    .object({ guid: text(200).min(1), limit: z.number().int().min(1).max(1000).default(100) })
    .strict(),
  /** Connectivity outages, newest first; the current one (if offline) has ended_at null. */
  'outages:list': none,
  /** The server's absences (it could not be reached), newest first; the current one has ended_at null. */
  'server-absences:list': none,
  /** One check over 1 h / 24 h / 7 d: chart buckets, uptime per window, last run, its events. */
  'checks:window': z.object({ guid: text(200).min(1), range: z.enum(['1h', '24h', '7d']) }).strict(),
  /** Runs the check once now and explains it: a test run, kept locally, never uploaded. */
  'checks:test-run': z.object({ guid: text(200).min(1) }).strict(),
  /** The event log, newest first; one check's ('' = the agent's own) when guid is given. */
  'events:list': z
    .object({
      guid: text(200).optional(),
      limit: z.number().int().min(1).max(1000).default(100),
      beforeId: z.number().int().min(1).optional(),
    })
    .strict(),
  /** Desktop: opens a file dialog when `file` is absent. Web: the path is typed in. */
  'private:choose-file': z.object({ file: text(4096).min(1).optional() }).strict(),
  'private:clear-file': none,
  'private:reload': none,
  /** Reveal on demand: the one way a local definition reaches the window, for one check. */
  'private:reveal': z.object({ guid: text(200).min(1) }).strict(),
  'settings:get': none,
  'settings:update': settingsPatchSchema,
  'app:info': none,
  'app:open-logs': none,
  /** Only https URLs are opened, in the system browser. */
  'app:open-external': z.object({ url: z.url({ protocol: /^https$/ }) }).strict(),
} as const;

export type InvokeChannel = keyof typeof invokeArgs;
export type InvokeArgs<C extends InvokeChannel> = z.input<(typeof invokeArgs)[C]>;
export type ParsedArgs<C extends InvokeChannel> = z.output<(typeof invokeArgs)[C]>;

/**
 * The agent's own enrollment outcome, unchanged: one failure kind per answer the user acts on
 * differently, with its cause, field and monitor id (src-renderer/words/ chooses the words).
 */
export type EnrollResult = EnrollOutcome;

/** What a sync, upload or send-again the user asked for did, as figures. */
export type RunDone =
  | { kind: 'sync'; received: number; stopped: number }
  | { kind: 'upload'; delivered: number; rejected: number }
  /** moved: refused results put back in the outbox; then the upload that followed (none when 0). */
  | { kind: 'resend'; moved: number; delivered: number; rejected: number };

/**
 * A sync or upload run the user asked for: what it did, or what failed, as data only; the
 * window (src-renderer/words/command-words.ts) and the tray choose the words, the log has the details.
 */
export type RunResult = { ok: true; done: RunDone } | { ok: false; failure: FailureFacts };

export interface CommandLineSettings {
  intervals?: Settings['intervals'];
  privateChecksFile?: string;
}

export interface AppInfo {
  version: string;
  logsFolder: string;
  dataFolder: string;
  /** 'desktop' in Electron, 'web' for the loopback dashboard. */
  host: 'desktop' | 'web';
  platform: string;
  /** This machine's host name: the default monitor name when enrolling. */
  hostName: string;
  /** How the API key is protected, in words (e.g. no OS keyring: a user-only file). */
  keyStorage: string;
  /** Set when the key cannot be encrypted by the OS, to warn the user. */
  keyStorageWarning?: string;
  /** Settings given on the command line (`run` flags): they win over the settings file. */
  commandLine?: CommandLineSettings;
}

export interface InvokeResults {
  'agent:snapshot': AgentSnapshot;
  'agent:enroll': EnrollResult;
  'agent:reclaim': EnrollResult;
  'agent:sync-now': RunResult;
  'agent:upload-now': RunResult;
  'agent:resend-set-aside': RunResult;
  'agent:pause': AgentSnapshot;
  'agent:resume': AgentSnapshot;
  'agent:forget': AgentSnapshot;
  'checks:history': HistoryEntry[];
  'outages:list': OutageRecord[];
  'server-absences:list': ServerAbsence[];
  'checks:window': CheckWindow;
  'checks:test-run': TestRunResult;
  'events:list': AgentEvent[];
  'private:choose-file': AgentSnapshot;
  'private:clear-file': AgentSnapshot;
  'private:reload': AgentSnapshot;
  'private:reveal': CheckDefinition | null;
  'settings:get': Settings;
  'settings:update': Settings;
  'app:info': AppInfo;
  'app:open-logs': null;
  'app:open-external': null;
}

export type { IpcError, IpcErrorKind } from './ipc-error.ts';

/** A call's answer: its value, or why it failed as data (the words: ./ipc-error-words.ts). */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** Views the window can be asked to show (a notification click, a tray item). */
export const viewNames = [
  'overview',
  'checks',
  'events',
  'unsent',
  'outages',
  'private',
  'settings',
  'enroll',
] as const;
export type ViewName = (typeof viewNames)[number];

/** A payload type carried as a value, so that event names come from the same map as their payloads. */
type Payload<T> = { readonly payload?: T };
const payload = <T>(): Payload<T> => ({});

/** Events from main to the renderer, each with its payload. */
const eventPayloads = {
  /** Throttled: at most a few a second, always ending with the latest state. */
  'agent:state-changed': payload<AgentSnapshot>(),
  'checks:transition': payload<CheckTransition[]>(),
  'app:navigate': payload<{ view: ViewName; guid?: string }>(),
};
export type EventPayloads = { [E in keyof typeof eventPayloads]: NonNullable<(typeof eventPayloads)[E]['payload']> };
export type EventName = keyof EventPayloads;
export const eventNames = Object.keys(eventPayloads) as EventName[];
/** A listener for one event, typed from the map: no payload is cast. */
export type EventListener<E extends EventName> = (payload: EventPayloads[E]) => void;

/** What the preload (and the web bridge) put on `window.agent`, and nothing else. */
export interface AgentBridge {
  invoke<C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<IpcResult<InvokeResults[C]>>;
  on<E extends EventName>(event: E, listener: EventListener<E>): () => void;
}

export const isInvokeChannel = (value: unknown): value is InvokeChannel =>
  typeof value === 'string' && Object.hasOwn(invokeArgs, value);
export const isEventName = (value: unknown): value is EventName =>
  typeof value === 'string' && (eventNames as readonly string[]).includes(value);
