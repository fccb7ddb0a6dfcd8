// `uptime-agent test-check (--file F|- | --guid G)`: runs checks once, right now, and prints why
// each passed or failed (issue 13 §6, issue 24 §12). It runs under the data folder's settings
// (egress policy, proxy, CA bundles) as the running agent would, unless a flag overrides them.
// Nothing is stored or uploaded; --guid reads the store read-only and never migrates it.
// Exit 0 every check passed, 1 one failed, 2 bad definition or command line, 8 unusable store.
import { z } from 'zod';
import { resolveDataDir, storeFile } from '../agent/base/data-dir.ts';
import { readLocalFile } from '../agent/base/local-file.ts';
import { privateDefinitionsDefaults } from '../agent/checks/private-definitions/index.ts';
import { explain, runProbe } from '../agent/probes/index.ts';
import { runnableChecks } from '../agent/checks/runnable-checks.ts';
import { getCheck } from '../agent/store/checks.ts';
import { openDatabaseReadOnly } from '../agent/store/database.ts';
import { probeNetwork, type NetworkSettings } from '../agent/wire/network.ts';
import { assertStoreIsFile } from '../agent/store/open-store.ts';
import type { CheckDefinition } from '../agent/wire/schemas.ts';
import { networkFrom } from '../ipc/settings-tunables.ts';
import { describeIssues, parseFlags } from './args.ts';
import { readSettingsFile } from './dashboard/settings-file.ts';
import { exitCodes } from './exit-codes.ts';
import type { CliIo } from './io.ts';
import { localStateMessage } from './local-state.ts';
import { readTestChecks, type TestChecks } from './test-check-input.ts';
const { existsSync } = process.getBuiltinModule('node:fs');

const flagsSchema = z.object({
  guid: z.string().min(1, 'must not be empty').optional(),
  file: z.string().min(1, 'must not be empty').optional(),
  'private-checks': z.string().min(1, 'must not be empty').optional(),
  'checks-ca': z.string().min(1, 'must not be empty').optional(),
  'egress-policy': z.enum(['open', 'strict'], { error: 'must be open or strict' }).optional(),
  proxy: z.string().trim().min(1, 'needs a proxy URL, e.g. http://proxy.example:3128').optional(),
  'checks-use-proxy': z.boolean().optional(),
  'data-dir': z.string().optional(),
});

type Flags = z.infer<typeof flagsSchema>;
type Found = { ok: true; value: TestChecks } | { ok: false; message: string; code?: number };

export async function testCheckCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseFlags(argv, {
    guid: { type: 'string' },
    file: { type: 'string' },
    'private-checks': { type: 'string' },
    'checks-ca': { type: 'string' },
    'egress-policy': { type: 'string' },
    proxy: { type: 'string' },
    'checks-use-proxy': { type: 'boolean' },
  });
  const usage = (message: string): number => {
    io.stderr(`test-check: ${message}. Run "uptime-agent test-check --help" for usage.`);
    return exitCodes.usage;
  };
  if (!parsed.ok) return usage(parsed.message);
  const flags = flagsSchema.safeParse(parsed.value);
  if (!flags.success) return usage(describeIssues(flags.error));
  const { guid, file } = flags.data;
  if (guid === undefined && file === undefined) return usage('say which check to run with --guid G or --file F');
  const dataDir = resolveDataDir(flags.data['data-dir'], io.env);

  const found: Found =
    file === undefined
      ? await fromStore(guid ?? '', flags.data['private-checks'], dataDir, io)
      : await readTestChecks(file, guid, io);
  if (!found.ok) {
    io.stderr(`test-check: ${found.message}`);
    return found.code ?? exitCodes.usage;
  }
  const network = await networkFor(flags.data, dataDir, io);
  if (!network.ok) return usage(network.message);

  const { checks, problems } = found.value;
  let failed = false;
  for (const { guid: name, definition } of checks) {
    if (checks.length > 1) io.stdout(`— check ${name}`);
    const outcome = await runProbe(definition, network.value);
    for (const line of explain(outcome, definition)) io.stdout(line);
    if (outcome.invalidDefinition === true) problems.push(`check ${JSON.stringify(name)}: ${outcome.error}`);
    else if (!outcome.success) failed = true;
  }
  for (const problem of problems) io.stderr(`test-check: ${problem}`);
  if (problems.length > 0) return exitCodes.usage;
  return failed ? exitCodes.failure : exitCodes.ok;
}

/**
 * The data folder's network settings, as `run` reads them, with the flags on top. A CA bundle
 * given on the command line must be usable (exit 2); one from settings.json that is not is said
 * and the checks run without it, as the running agent does.
 */
async function networkFor(
  flags: Flags,
  dataDir: string,
  io: CliIo,
): Promise<{ ok: true; value: ReturnType<typeof probeNetwork>['value'] } | { ok: false; message: string }> {
  const saved = networkFrom(readSettingsFile(dataDir, (warning) => io.stderr(`test-check: warning: ${warning}`)));
  const caFile = flags['checks-ca'];
  if (caFile !== undefined) {
    const read = await readLocalFile(caFile, privateDefinitionsDefaults.maxBytes);
    if (!read.ok || !read.bytes.toString('utf8').includes('-----BEGIN CERTIFICATE-----'))
      return {
        ok: false,
        message: `cannot use ${caFile} as a CA bundle: it must be a readable PEM file with certificates`,
      };
  }
  const settings: NetworkSettings = {
    ...saved,
    ...(caFile === undefined ? {} : { checksCaFile: caFile }),
    ...(flags['egress-policy'] === undefined ? {} : { egressPolicy: flags['egress-policy'] }),
    ...(flags.proxy === undefined ? {} : { proxyUrl: flags.proxy }),
    ...(flags['checks-use-proxy'] === undefined ? {} : { checksUseProxy: flags['checks-use-proxy'] }),
  };
  const network = probeNetwork(settings, io.env);
  for (const problem of network.problems) io.stderr(`test-check: warning: ${problem}`);
  return { ok: true, value: network.value };
}

/** A synced check from the data folder, read-only; a private-definition one needs --private-checks FILE. */
async function fromStore(guid: string, privateFile: string | undefined, dataDir: string, io: CliIo): Promise<Found> {
  const file = storeFile(dataDir);
  if (!existsSync(file)) {
    return {
      ok: false,
      message: `no synced checks in ${dataDir}: enroll and run the agent first, or test a definition with --file F`,
    };
  }
  let stored;
  try {
    assertStoreIsFile(file);
    // Read-only: a store of another version is read as it is, never migrated by a test.
    const db = openDatabaseReadOnly(file);
    try {
      stored = getCheck(db, guid);
    } finally {
      db.close();
    }
  } catch (error) {
    return { ok: false, message: localStateMessage(error, dataDir), code: exitCodes.localState };
  }
  if (stored === undefined)
    return { ok: false, message: `no check with guid ${JSON.stringify(guid)}: "uptime-agent status" lists the checks` };
  let privateDefs = new Map<string, CheckDefinition>();
  if (stored.privateDefinition) {
    if (privateFile === undefined) {
      return {
        ok: false,
        message: `check ${JSON.stringify(guid)} has a private definition: give its file with --private-checks FILE`,
      };
    }
    const local = await readTestChecks(privateFile, guid, io);
    if (!local.ok) return local;
    const [entry] = local.value.checks;
    if (entry === undefined) return { ok: false, message: local.value.problems.join('; ') };
    privateDefs = new Map([[guid, entry.definition]]);
  }
  // Also a disabled check can be tried out by hand.
  const runnable = runnableChecks([{ ...stored, active: true }], privateDefs).runnable.get(guid);
  if (runnable === undefined)
    return { ok: false, message: `check ${JSON.stringify(guid)} cannot be run: its interval is not usable` };
  return { ok: true, value: { checks: [{ guid, definition: runnable.definition }], problems: [] } };
}
