// `uptime-agent run`: hosts the agent until SIGINT/SIGTERM, then stops it gracefully. With
// --dashboard it also serves the window on loopback, and then runs even when not enrolled (idle
// until the user enrolls from the page). settings.json in the data folder (written by the
// dashboard's Settings) supplies what the flags leave out.
import { z } from 'zod';
import { createAgent, type Agent } from '../agent/agent.ts';
import { resolveDataDir } from '../agent/base/data-dir.ts';
import { takeInstanceLock } from '../agent/identity/instance-lock.ts';
import { fileKeyVault } from '../agent/identity/key-vault.ts';
import { createLogger } from '../agent/base/log.ts';
import { describeIssues, intervalSeconds, parseFlags } from './args.ts';
import { fileSettingsStore, serveDashboard, type Dashboard } from './dashboard/index.ts';
import { exitCodes } from './exit-codes.ts';
import { localStateMessage } from './local-state.ts';
import { networkFrom, tunablesFrom } from '../ipc/settings-tunables.ts';
import type { CliIo } from './io.ts';
import { networkFlags, networkFlagsSchema, networkPatch } from './network-flags.ts';

const flags = {
  'private-checks': { type: 'string' },
  'sync-interval': { type: 'string' },
  'upload-interval': { type: 'string' },
  'status-interval': { type: 'string' },
  'ping-interval': { type: 'string' },
  dashboard: { type: 'boolean' },
  'dashboard-port': { type: 'string' },
  'resend-refused': { type: 'boolean' },
  ...networkFlags,
} as const;

const runSchema = networkFlagsSchema.extend({
  'data-dir': z.string().optional(),
  'private-checks': z.string().min(1, 'needs a file path').optional(),
  'sync-interval': intervalSeconds.optional(),
  'upload-interval': intervalSeconds.optional(),
  'status-interval': intervalSeconds.optional(),
  'ping-interval': intervalSeconds.optional(),
  dashboard: z.boolean().optional(),
  'resend-refused': z.boolean().optional(),
  'dashboard-port': z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a whole port number')
    .min(0, 'must be between 0 and 65535')
    .max(65_535, 'must be between 0 and 65535')
    .optional(),
});

/** A graceful stop must finish well inside the 15 s the contract allows; past this, exit anyway. */
const hardStopMs = 14_000;

export async function runCommand(argv: string[], io: CliIo, stopSignal: Promise<string>): Promise<number> {
  const parsed = parseFlags(argv, flags);
  if (!parsed.ok) return usage(io, parsed.message);
  const options = runSchema.safeParse(parsed.value);
  if (!options.success) return usage(io, describeIssues(options.error));
  const o = options.data;
  if (o['dashboard-port'] !== undefined && o.dashboard !== true) return usage(io, '--dashboard-port needs --dashboard');
  const seconds = (s: number | undefined): number | undefined => (s === undefined ? undefined : Math.round(s * 1000));

  const dataDir = resolveDataDir(o['data-dir'], io.env);
  // Not enrolled and no dashboard to enroll from: say so before anything is created, locked,
  // saved or tightened, so the data folder is left exactly as it was.
  if (o.dashboard !== true) {
    try {
      if ((await fileKeyVault(dataDir, undefined, { readOnly: true }).load()) === undefined)
        return notEnrolled(io, dataDir);
    } catch (error) {
      io.stderr(`run: ${localStateMessage(error, dataDir)}`);
      return exitCodes.localState;
    }
  }
  const log = createLogger();
  let lock: ReturnType<typeof takeInstanceLock>;
  try {
    lock = takeInstanceLock(dataDir);
  } catch (error) {
    io.stderr(`run: ${localStateMessage(error, dataDir, 'run')}`);
    return exitCodes.localState;
  }
  if (!lock.ok) {
    io.stderr(
      `run: another uptime-agent (pid ${lock.pid}) is already running on ${dataDir}; stop it first or use another --data-dir.`,
    );
    return exitCodes.failure;
  }
  if (lock.tookOver !== undefined)
    log.warn(
      { pid: lock.tookOver.pid },
      `took over a stale lock on ${dataDir} (process ${lock.tookOver.pid} is not an uptime-agent any more)`,
    );
  const settings = fileSettingsStore(dataDir, (warning) => log.warn(warning));
  // Network flags are kept in settings.json (README "Office networks"), like the dashboard's.
  const patch = networkPatch(o);
  const saved = Object.keys(patch).length === 0 ? settings.get() : settings.update(patch);
  const privateChecksFile =
    o['private-checks'] ?? (saved.privateChecksFile === '' ? undefined : saved.privateChecksFile);
  const vault = fileKeyVault(dataDir, (warning) => log.warn(warning));
  let agent: Agent;
  try {
    // A damaged key file is the user's to fix; running as "not enrolled" would hide it.
    await vault.load();
    agent = createAgent({
      dataDir,
      vault,
      log,
      ...(privateChecksFile === undefined ? {} : { privateChecksFile }),
      network: networkFrom(saved, settings.problem?.()),
      env: io.env,
      // Flags win over settings.json, which wins over the defaults.
      tunables: {
        ...tunablesFrom(saved),
        ...definedOnly({
          syncIntervalMs: seconds(o['sync-interval']),
          uploadIntervalMs: seconds(o['upload-interval']),
          statusIntervalMs: seconds(o['status-interval']),
          pingIntervalMs: seconds(o['ping-interval']),
        }),
      },
    });
  } catch (error) {
    lock.release();
    io.stderr(`run: ${localStateMessage(error, dataDir, 'run')}`);
    return exitCodes.localState;
  }
  let dashboard: Dashboard | undefined;
  let stopping: Promise<number> | undefined;
  try {
    await agent.start();
    // The key may have gone between the check above and here (forgotten by another process).
    if (!agent.isEnrolled() && o.dashboard !== true) return notEnrolled(io, dataDir);
    if (o['resend-refused'] === true) {
      const { moved } = await agent.resendSetAside();
      log.info({ moved }, `${moved} results the server had refused are queued to be sent again`);
    }
    if (o.dashboard === true) {
      try {
        const intervals = definedOnly({
          syncSec: o['sync-interval'],
          uploadSec: o['upload-interval'],
          statusSec: o['status-interval'],
          pingSec: o['ping-interval'],
        });
        const commandLine = {
          intervals,
          ...(o['private-checks'] === undefined ? {} : { privateChecksFile: o['private-checks'] }),
        };
        dashboard = await serveDashboard({ agent, settings, dataDir, log, port: o['dashboard-port'], commandLine });
      } catch (error) {
        io.stderr(
          `run: the dashboard cannot listen on 127.0.0.1:${o['dashboard-port'] ?? 0} (${error instanceof Error ? error.message : String(error)}); choose another --dashboard-port.`,
        );
        return exitCodes.failure;
      }
      io.stdout(`dashboard: ${dashboard.url}`);
      if (!agent.isEnrolled()) log.info('not enrolled yet: open the dashboard URL and enroll this agent from the page');
    }
    log.info({ dataDir }, 'agent running; stop with Ctrl-C or SIGTERM');
    const signal = await stopSignal;
    log.info({ signal }, 'stopping');
    return await stopOnce(() => log.warn('graceful stop took too long; exiting anyway'));
  } finally {
    await stopOnce(() => undefined);
    lock.release();
  }

  /**
   * One stop with one deadline, however many paths ask for it: the 15 s of the contract are for
   * the whole stop, whatever is stuck (a second wait on the same stuck stop doubled it).
   */
  function stopOnce(onLate: () => void): Promise<number> {
    stopping ??= stopWithin(
      Promise.all([dashboard?.close(), agent.stop()]).then(() => undefined),
      hardStopMs,
      onLate,
    );
    return stopping;
  }
}

async function stopWithin(stopping: Promise<void>, ms: number, onLate: () => void): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const result = await Promise.race([
    stopping.then(
      () => 'done' as const,
      () => 'done' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (result === 'late') onLate();
  return exitCodes.ok;
}

function definedOnly<T extends Record<string, number | undefined>>(values: T): { [K in keyof T]?: number } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: number };
}

function notEnrolled(io: CliIo, dataDir: string): number {
  io.stderr(
    `run: this agent is not enrolled (data folder ${dataDir}). Enroll it first: uptime-agent enroll --server URL ..., or run with --dashboard and enroll from the page.`,
  );
  return exitCodes.usage;
}

function usage(io: CliIo, message: string): number {
  io.stderr(`run: ${message}. Run "uptime-agent --help" for usage.`);
  return exitCodes.usage;
}
