// `uptime-agent test-check (--guid G | --file F)`: runs one check once, right now, and prints
// why it passed or failed (issue 13 §6). Nothing is stored or uploaded and nothing needs to be
// enrolled for --file. Exit 0 pass, 1 fail, 2 bad definition or command line.
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { localFileProblemText, readLocalFile } from '../agent/base/local-file.ts';
import { resolveDataDir, storeFile } from '../agent/identity/data-dir.ts';
import { parsePrivateDefinitions, privateDefinitionsDefaults } from '../agent/checks/private-definitions/index.ts';
import { explain, runProbe, type EgressPolicy } from '../agent/probes/index.ts';
import { runnableChecks } from '../agent/checks/runnable-checks.ts';
import { getCheck } from '../agent/store/checks.ts';
import { openDatabase } from '../agent/store/database.ts';
import { assertStoreIsFile } from '../agent/store/open-store.ts';
import type { CheckDefinition } from '../agent/wire/schemas.ts';
import { describeIssues, parseFlags } from './args.ts';
import { exitCodes } from './exit-codes.ts';
import type { CliIo } from './io.ts';

const flagsSchema = z.object({
  guid: z.string().min(1, 'must not be empty').optional(),
  file: z.string().min(1, 'must not be empty').optional(),
  'private-checks': z.string().min(1, 'must not be empty').optional(),
  'checks-ca': z.string().min(1, 'must not be empty').optional(),
  'egress-policy': z.enum(['open', 'strict'], { error: 'must be open or strict' }).optional(),
  'data-dir': z.string().optional(),
});

type Found = { ok: true; definition: CheckDefinition } | { ok: false; message: string };

export async function testCheckCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseFlags(argv, {
    guid: { type: 'string' },
    file: { type: 'string' },
    'private-checks': { type: 'string' },
    'checks-ca': { type: 'string' },
    'egress-policy': { type: 'string' },
  });
  const usage = (message: string): number => {
    io.stderr(`test-check: ${message}. Run "uptime-agent --help" for usage.`);
    return exitCodes.usage;
  };
  if (!parsed.ok) return usage(parsed.message);
  const flags = flagsSchema.safeParse(parsed.value);
  if (!flags.success) return usage(describeIssues(flags.error));
  const { guid, file } = flags.data;
  if (guid === undefined && file === undefined) return usage('say which check to run with --guid G or --file F');

  const found =
    file === undefined
      ? await fromStore(guid ?? '', flags.data['private-checks'], resolveDataDir(flags.data['data-dir'], io.env))
      : await fromFile(file, guid);
  if (!found.ok) {
    io.stderr(`test-check: ${found.message}`);
    return exitCodes.usage;
  }
  let ca: string[] | undefined;
  const caFile = flags.data['checks-ca'];
  if (caFile !== undefined) {
    const text = await readText(caFile);
    if (text === undefined || !text.includes('-----BEGIN CERTIFICATE-----')) {
      io.stderr(`test-check: cannot use ${caFile} as a CA bundle: it must be a readable PEM file with certificates`);
      return exitCodes.usage;
    }
    ca = [text];
  }
  const egressPolicy: EgressPolicy = flags.data['egress-policy'] ?? 'open';
  const outcome = await runProbe(found.definition, { egressPolicy, ...(ca === undefined ? {} : { ca }) });
  for (const line of explain(outcome, found.definition)) io.stdout(line);
  if (outcome.invalidDefinition === true) return exitCodes.usage;
  return outcome.success ? exitCodes.ok : exitCodes.failure;
}

/** Far above any definitions or CA file; the agent reads no more of either. */
const maxFileBytes = privateDefinitionsDefaults.maxBytes;

/** A regular file's text, bounded: a device or a FIFO is refused, never read for ever. */
async function readText(file: string): Promise<string | undefined> {
  const read = await readLocalFile(file, maxFileBytes);
  return read.ok ? read.bytes.toString('utf8') : undefined;
}

async function readProblem(file: string): Promise<string> {
  const read = await readLocalFile(file, maxFileBytes);
  return read.ok ? 'cannot be read' : localFileProblemText(read, maxFileBytes);
}

/** The definition of one entry of a private-definitions file (the only one, or --guid's). */
async function fromFile(file: string, guid: string | undefined): Promise<Found> {
  const text = await readText(file);
  if (text === undefined)
    return { ok: false, message: `cannot read ${file}: it ${await readProblem(file)}; give the JSON file itself` };
  const parsed = parsePrivateDefinitions(text);
  if (parsed.fileError !== undefined) return { ok: false, message: `${file}: ${parsed.fileError}` };
  const problems = parsed.problems.filter((p) => p.severity === 'error' && (guid === undefined || p.guid === guid));
  if (guid !== undefined) {
    const definition = parsed.entries.get(guid);
    if (definition !== undefined) return { ok: true, definition };
    const why = problems.map((p) => p.message).join('; ');
    return { ok: false, message: why !== '' ? why : `${file} has no check with guid ${JSON.stringify(guid)}` };
  }
  const [only, ...others] = [...parsed.entries.values()];
  if (only !== undefined && others.length === 0 && problems.length === 0) return { ok: true, definition: only };
  if (problems.length > 0) return { ok: false, message: problems.map((p) => p.message).join('; ') };
  if (only === undefined) return { ok: false, message: `${file} holds no check` };
  return { ok: false, message: `${file} holds ${others.length + 1} checks: choose one with --guid G` };
}

/** A synced check from the data folder; a private-definition one needs --private-checks FILE. */
async function fromStore(guid: string, privateFile: string | undefined, dataDir: string): Promise<Found> {
  if (!existsSync(storeFile(dataDir))) {
    return {
      ok: false,
      message: `no synced checks in ${dataDir}: enroll and run the agent first, or test a definition with --file F`,
    };
  }
  try {
    assertStoreIsFile(storeFile(dataDir));
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const db = openDatabase(storeFile(dataDir));
  let stored;
  try {
    stored = getCheck(db, guid);
  } finally {
    db.close();
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
    const local = await fromFile(privateFile, guid);
    if (!local.ok) return local;
    privateDefs = new Map([[guid, local.definition]]);
  }
  // Also a disabled check can be tried out by hand.
  const runnable = runnableChecks([{ ...stored, active: true }], privateDefs).runnable.get(guid);
  if (runnable === undefined)
    return { ok: false, message: `check ${JSON.stringify(guid)} cannot be run: its interval is not usable` };
  return { ok: true, definition: runnable.definition };
}
