// `uptime-agent enroll`: one request, then the monitor id on stdout or a reason on stderr. Only
// the key file is written (key and identity together); a running agent picks it up by itself.
import { resolveDataDir } from '../agent/base/data-dir.ts';
import { enroll, validateEnrollInput } from '../agent/identity/enrollment.ts';
import { fileKeyVault } from '../agent/identity/key-vault.ts';
import { serverClient } from '../agent/wire/network.ts';
import { userAgent } from '../agent/base/version.ts';
import { inputLimits } from '../agent/base/input-limits.ts';
import { describeIssues, parseFlags } from './args.ts';
import { fileSettingsStore } from './dashboard/settings-file.ts';
import { networkFlags, networkFlagsSchema, networkPatch } from './network-flags.ts';
import { enrollExitCode, exitCodes } from './exit-codes.ts';
import { enrollFailureLine } from './failure-words.ts';
import type { CliIo } from './io.ts';

const flags = {
  server: { type: 'string' },
  name: { type: 'string' },
  region: { type: 'string' },
  country: { type: 'string' },
  city: { type: 'string' },
  reclaim: { type: 'string' },
  token: { type: 'string' },
  'token-stdin': { type: 'boolean' },
  'allow-insecure-http': { type: 'boolean' },
  ...networkFlags,
} as const;

const str = (v: string | boolean | undefined): string => (typeof v === 'string' ? v : '');

export async function enrollCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseFlags(argv, flags);
  if (!parsed.ok) return usage(io, parsed.message);
  const v = parsed.value;
  const token = await readToken(v, io);
  if (!token.ok) return usage(io, token.message);
  if (str(v.server) === '')
    return usage(io, '--server is required (the uptime server address, e.g. https://uptime.example.com)');
  const input = {
    server: str(v.server),
    token: token.value,
    name: str(v.name),
    region: str(v.region),
    country: str(v.country),
    city: str(v.city),
    reclaimId: typeof v.reclaim === 'string' ? v.reclaim : undefined,
    allowInsecureHttp: v['allow-insecure-http'] === true,
  };
  const valid = validateEnrollInput(input);
  if (!valid.ok) return usage(io, valid.message);
  const network = networkFlagsSchema.safeParse(v);
  if (!network.success) return usage(io, describeIssues(network.error));

  const dataDir = resolveDataDir(str(v['data-dir']), io.env);
  const settings = fileSettingsStore(dataDir, (warning) => io.stderr(`warning: ${warning}`));
  const patch = networkPatch(network.data);
  const outcome = await enroll(input, {
    dataDir,
    vault: fileKeyVault(dataDir, (warning) => io.stderr(`warning: ${warning}`)),
    // The flags win over settings.json; HTTPS_PROXY and friends come in when neither sets a proxy.
    client: (server) => serverClient(server, { ...settings.get(), ...patch }, io.env, userAgent),
  });
  if (!outcome.ok) {
    io.stderr(enrollFailureLine(outcome, input.server));
    // The monitor id the server issued, for scripts, as on success.
    if (outcome.kind === 'not-saved' && outcome.monitorId !== undefined) io.stdout(outcome.monitorId);
    return enrollExitCode[outcome.kind];
  }
  if (outcome.warning !== undefined) io.stderr(`warning: ${outcome.warning}`);
  // Only settings that worked are kept, so that `run` goes the same way.
  if (Object.keys(patch).length > 0) settings.update(patch);
  io.stdout(`enrolled with ${outcome.server}; data folder ${dataDir}`);
  io.stdout(outcome.monitorId);
  return exitCodes.ok;
}

function usage(io: CliIo, message: string): number {
  io.stderr(`enroll: ${message}. Run "uptime-agent --help" for usage.`);
  return exitCodes.usage;
}

/** The token from exactly one source; surrounding whitespace (a pasted newline) is trimmed. */
async function readToken(
  v: Record<string, string | boolean | undefined>,
  io: CliIo,
): Promise<{ ok: true; value: string } | { ok: false; message: string }> {
  const fromFlag = typeof v.token === 'string';
  const fromStdin = v['token-stdin'] === true;
  if (fromFlag && fromStdin)
    return { ok: false, message: 'give the token either with --token or with --token-stdin, not both' };
  const raw = fromFlag
    ? str(v.token)
    : fromStdin
      ? await io.readStdin(inputLimits.enrollTokenChars + 1024)
      : (io.env.UPTIME_AGENT_ENROLL_TOKEN ?? '');
  const value = raw.trim();
  if (value === '') {
    return {
      ok: false,
      message: 'an enrollment token is required: --token T, --token-stdin, or env UPTIME_AGENT_ENROLL_TOKEN',
    };
  }
  // Its length and characters are checked where every surface's token is (enrollment.ts).
  return { ok: true, value };
}
