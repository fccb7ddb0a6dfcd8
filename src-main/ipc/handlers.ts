// The implementation of every IPC channel, shared by the Electron main process and the web
// dashboard: arguments are parsed from `unknown` against the contract, and every outcome comes
// back as a value ({ ok, value } or { ok: false, error }), never as a thrown error.
import { isAbsolute } from 'node:path';
import type { Agent } from '../agent/agent.ts';
import type { Logger } from '../agent/base/log.ts';
import type { UploadOutcome } from '../agent/delivery/uploader.ts';
import type { CallFailure } from '../agent/identity/identity.ts';
import { factsOf } from '../agent/wire/failure.ts';
import { keepStoredProxyPassword, settingsForWindow } from './settings-secrets.ts';
import { networkFrom } from './settings-tunables.ts';
import { PrivateFileRefused } from '../agent/checks/check-set.ts';
import { ipcErrorOf, IpcRefusal, type IpcError } from './ipc-error.ts';
import {
  invokeArgs,
  isInvokeChannel,
  type AppInfo,
  type InvokeChannel,
  type InvokeResults,
  type IpcResult,
  type ParsedArgs,
  type RunResult,
  type Settings,
  type SettingsPatch,
} from './contract.ts';

/** What only the host can do (a file dialog, the file manager, the system browser). */
export interface HostActions {
  info(): AppInfo;
  /** Asks the user for a file; undefined when cancelled or not possible on this host. */
  chooseFile(): Promise<string | undefined>;
  openLogsFolder(): Promise<void>;
  openExternal(url: string): Promise<void>;
}

export interface SettingsStore {
  get(): Settings;
  update(patch: SettingsPatch): Settings;
  /** Why stored settings could not all be used (a damaged file): shown until the user saves them. */
  problem?(): string | undefined;
}

export interface HandlerDeps {
  agent: Agent;
  settings: SettingsStore;
  host: HostActions;
  log: Logger;
  /** Called after settings changed, so the host applies them (login item, intervals...). */
  onSettingsChanged?: (settings: Settings, patch: SettingsPatch) => Promise<void> | void;
}

/** Settings that change how the agent reaches the server and the checks: applied at once. */
const networkKeys = ['proxyUrl', 'checksUseProxy', 'serverCaFile', 'checksCaFile', 'egressPolicy'] as const;

type Handlers = { [C in InvokeChannel]: (args: ParsedArgs<C>) => Promise<InvokeResults[C]> };

export type InvokeHandler = (channel: unknown, args: unknown) => Promise<IpcResult<unknown>>;

/** The argument at fault, for the window's words; the channel and zod's text go to the log. */
function badArguments(error: { issues: { path: PropertyKey[] }[] }): IpcError {
  const path = error.issues[0]?.path ?? [];
  return path.length === 0 ? { kind: 'bad-arguments' } : { kind: 'bad-arguments', field: path.map(String).join('.') };
}

export function createHandlers(deps: HandlerDeps): InvokeHandler {
  const { agent, settings, host } = deps;

  async function usePrivateFile(file: string | undefined): Promise<void> {
    await agent.setPrivateChecksFile(file);
    const changed = settings.update(
      file === undefined ? { privateChecksFile: undefined } : { privateChecksFile: file },
    );
    await deps.onSettingsChanged?.(changed, { privateChecksFile: file });
  }

  const handlers: Handlers = {
    'agent:snapshot': () => Promise.resolve(agent.snapshot()),
    'agent:enroll': (args) => enrollWith(args, undefined),
    'agent:reclaim': (args) => enrollWith(args, args.monitorId),
    async 'agent:sync-now'() {
      const outcome = await agent.syncNow();
      if (!outcome.ok) return { ok: false, failure: factsOf(outcome.error) };
      const { received, stopped } = outcome.summary;
      return { ok: true, done: { kind: 'sync', received, stopped } };
    },
    async 'agent:upload-now'() {
      return uploadResult(await agent.uploadNow());
    },
    async 'agent:resend-set-aside'() {
      const { moved, upload } = await agent.resendSetAside();
      if (moved === 0) return { ok: true, done: { kind: 'resend', moved, delivered: 0, rejected: 0 } };
      // Failed: its kind, as for Upload now (the refused results stay in the outbox).
      if (!upload.ok) return { ok: false, failure: factsOf(upload.error) };
      const { delivered, rejected } = upload.report;
      return { ok: true, done: { kind: 'resend', moved, delivered, rejected } };
    },
    'agent:pause': () => {
      agent.pause();
      return Promise.resolve(agent.snapshot());
    },
    'agent:resume': () => {
      agent.resume();
      return Promise.resolve(agent.snapshot());
    },
    async 'agent:forget'() {
      await agent.forget();
      return agent.snapshot();
    },
    'checks:history': (args) => Promise.resolve(agent.checkHistory(args.guid, args.limit)),
    'outages:list': () => Promise.resolve(agent.outages()),
    'server-absences:list': () => Promise.resolve(agent.serverAbsences()),
    'checks:window': (args) => Promise.resolve(agent.insight.window(args.guid, args.range)),
    'checks:test-run': (args) => agent.insight.testRun(args.guid),
    'events:list': (args) => Promise.resolve(agent.insight.events(args)),
    async 'private:choose-file'(args) {
      const file = args.file ?? (await host.chooseFile());
      // Relative to what? The agent's working folder is not the user's: only full paths.
      if (file !== undefined && !isAbsolute(file)) throw new IpcRefusal({ kind: 'not-full-path', path: file });
      if (file !== undefined) await usePrivateFile(file);
      return agent.snapshot();
    },
    async 'private:clear-file'() {
      await usePrivateFile(undefined);
      return agent.snapshot();
    },
    async 'private:reload'() {
      await agent.reloadPrivateChecks();
      return agent.snapshot();
    },
    'private:reveal': (args) => Promise.resolve(agent.privateDefinition(args.guid) ?? null),
    // The proxy password never crosses the bridge; a masked one sent back keeps the stored one.
    'settings:get': () => Promise.resolve(settingsForWindow(settings.get())),
    async 'settings:update'(sent) {
      const patch = keepStoredProxyPassword(sent, settings.get());
      const next = settings.update(patch);
      if (patch.privateChecksFile !== undefined && patch.privateChecksFile !== '')
        await agent.setPrivateChecksFile(patch.privateChecksFile);
      if (networkKeys.some((key) => key in patch)) await agent.setNetwork(networkFrom(next, settings.problem?.()));
      await deps.onSettingsChanged?.(next, patch);
      return settingsForWindow(next);
    },
    'app:info': () => Promise.resolve(host.info()),
    async 'app:open-logs'() {
      await host.openLogsFolder();
      return null;
    },
    async 'app:open-external'(args) {
      await host.openExternal(args.url);
      return null;
    },
  };

  async function enrollWith(
    args: ParsedArgs<'agent:enroll'>,
    reclaimId: string | undefined,
  ): Promise<InvokeResults['agent:enroll']> {
    const { proxyUrl: typedProxy, serverCaFile, egressPolicy, ...input } = args;
    // A masked proxy sent back (the dialog shows the saved one) keeps the stored password.
    const { proxyUrl } = keepStoredProxyPassword(
      typedProxy === undefined ? {} : { proxyUrl: typedProxy },
      settings.get(),
    );
    // The dialog's advanced part: saved like Settings, and used by this very enrollment.
    const network = {
      ...(proxyUrl === undefined ? {} : { proxyUrl }),
      ...(serverCaFile === undefined ? {} : { serverCaFile }),
      ...(egressPolicy === undefined ? {} : { egressPolicy }),
    };
    if (Object.keys(network).length > 0)
      await agent.setNetwork(networkFrom(settings.update(network), settings.problem?.()));
    const outcome = await agent.enroll({ ...input, ...(reclaimId === undefined ? {} : { reclaimId }) });
    if (outcome.ok) {
      // Remember what was typed (never the token) so that the next enrollment starts from it.
      const { server, name, region, country, city } = args;
      const next = settings.update({ serverUrl: server, monitorName: name, region, country, city });
      await deps.onSettingsChanged?.(next, { serverUrl: server });
      return outcome;
    }
    // Unchanged: the window chooses its words from the kind, cause, field and monitor id.
    return outcome;
  }

  return async (channel, args) => {
    if (!isInvokeChannel(channel)) return { ok: false, error: { kind: 'unknown-channel' } };
    const parsed = invokeArgs[channel].safeParse(args ?? {});
    if (!parsed.success) {
      deps.log.warn({ channel, issues: parsed.error.issues }, 'IPC call with arguments that do not fit');
      return { ok: false, error: badArguments(parsed.error) };
    }
    try {
      const handler = handlers[channel] as (a: unknown) => Promise<unknown>;
      return { ok: true, value: await handler(parsed.data) };
    } catch (error) {
      deps.log.error({ err: error, channel }, 'IPC handler failed');
      return { ok: false, error: refusalOf(error) };
    }
  };
}

/** A failure the window has words for, as data; anything else is 'failed' (the log has it whole). */
function refusalOf(error: unknown): IpcError {
  if (error instanceof PrivateFileRefused)
    return {
      kind: 'private-file-refused',
      detail: error.fileError,
      ...(error.inForce === undefined ? {} : { path: error.inForce }),
    };
  return ipcErrorOf(error);
}

/** What an upload a user asked for did, as figures (the window words them). */
function uploadResult(outcome: UploadOutcome | CallFailure): RunResult {
  if (!outcome.ok) return { ok: false, failure: factsOf(outcome.error) };
  const { delivered, rejected } = outcome.report;
  return { ok: true, done: { kind: 'upload', delivered, rejected } };
}
