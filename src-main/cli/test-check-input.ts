// What `uptime-agent test-check --file` reads: a file or stdin (`-`) holding one check, an array
// of checks, or {"checks": [...]} in the private-definitions format (issue 24 §12). A check
// without a guid is named by its place ("check 2"). Bounded: a definitions file is small.
import { localFileProblemText, readLocalFile } from '../agent/base/local-file.ts';
import { parsePrivateDefinitions, privateDefinitionsDefaults } from '../agent/checks/private-definitions/index.ts';
import type { CheckDefinition } from '../agent/wire/schemas.ts';
import type { CliIo } from './io.ts';

export interface TestChecks {
  /** Runnable definitions, in file order, by guid (or "check N"). */
  checks: { guid: string; definition: CheckDefinition }[];
  /** One line per definition that cannot run: exit 2. */
  problems: string[];
}

export type ReadOutcome = { ok: true; value: TestChecks } | { ok: false; message: string };

const maxBytes = privateDefinitionsDefaults.maxBytes;

async function readSource(
  file: string,
  io: CliIo,
): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  if (file === '-') {
    const text = await io.readStdin(maxBytes);
    if (Buffer.byteLength(text) > maxBytes) return { ok: false, message: `stdin holds more than ${maxBytes} bytes` };
    return { ok: true, text };
  }
  const read = await readLocalFile(file, maxBytes);
  if (read.ok) return { ok: true, text: read.bytes.toString('utf8') };
  return { ok: false, message: `cannot read ${file}: it ${localFileProblemText(read, maxBytes)}` };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One check, an array, or {"checks": [...]}, as the private-definitions shape. */
function asDefinitionsFile(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  if (isRecord(value) && Array.isArray(value.checks)) return value.checks as unknown[];
  if (isRecord(value)) return [value];
  return undefined;
}

export async function readTestChecks(file: string, guid: string | undefined, io: CliIo): Promise<ReadOutcome> {
  const where = file === '-' ? 'stdin' : file;
  const source = await readSource(file, io);
  if (!source.ok) return source;
  let json: unknown;
  try {
    json = JSON.parse(source.text);
  } catch {
    return {
      ok: false,
      message: `${where} is not valid JSON: give one check, an array of checks, or {"checks": [...]}`,
    };
  }
  const list = asDefinitionsFile(json);
  if (list === undefined)
    return { ok: false, message: `${where} must hold one check, an array of checks, or {"checks": [...]}` };
  const named = list.map((c, i) => (isRecord(c) && c.guid === undefined ? { ...c, guid: `check ${i + 1}` } : c));
  const parsed = parsePrivateDefinitions(JSON.stringify({ checks: named }));
  if (parsed.fileError !== undefined) return { ok: false, message: `${where}: ${parsed.fileError}` };
  const wanted = (g: string | undefined): boolean => guid === undefined || g === guid;
  const problems = parsed.problems.filter((p) => p.severity === 'error' && wanted(p.guid)).map((p) => p.message);
  const checks = [...parsed.entries].filter(([g]) => wanted(g)).map(([g, definition]) => ({ guid: g, definition }));
  if (checks.length === 0 && problems.length === 0)
    return {
      ok: false,
      message:
        guid === undefined ? `${where} holds no check` : `${where} has no check with guid ${JSON.stringify(guid)}`,
    };
  return { ok: true, value: { checks, problems } };
}
