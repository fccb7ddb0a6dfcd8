// Shared pieces of the shell tests: a snapshot to vary, an in-memory store, temp folders.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAgent } from '../../src-main/agent/agent.ts';
import { fileKeyVault } from '../../src-main/agent/identity/key-vault.ts';
import type { AgentSnapshot, CheckTransition } from '../../src-main/ipc/contract.ts';
import type { StoreBacking } from '../../src-main/electron/settings.ts';
import { tempDir } from '../support/temp-dir.ts';

export { tempDir };

/** The snapshot of a fresh, not enrolled agent: the base that table cases vary. */
export async function baseSnapshot(): Promise<AgentSnapshot> {
  const dir = await tempDir('snapshot-');
  const agent = createAgent({ dataDir: dir.path, vault: fileKeyVault(dir.path) });
  try {
    return agent.snapshot();
  } finally {
    await agent.stop();
    await dir.remove();
  }
}

type Counts = AgentSnapshot['counts'];

/** An enrolled agent's snapshot with the given figures (the rest as a healthy agent has it). */
export function enrolledSnapshot(
  base: AgentSnapshot,
  change: Partial<Omit<AgentSnapshot, 'counts'>> & { counts?: Partial<Counts> } = {},
): AgentSnapshot {
  const { counts, ...rest } = change;
  return {
    ...base,
    enrolled: true,
    identity: { monitorId: 'mon-1', server: 'https://uptime.example' },
    // A healthy agent has reached the server (a fresh agent has not tried yet: connecting).
    connection: { state: 'connected', since: base.takenAt, lastSuccessAt: base.takenAt },
    ...rest,
    counts: { ...base.counts, total: 12, runnable: 12, up: 12, down: 0, pending: 0, ...counts },
  };
}

export function memoryBacking(initial: Record<string, unknown> = {}): StoreBacking & { data: Record<string, unknown> } {
  const data: Record<string, unknown> = structuredClone(initial);
  return {
    data,
    get: (key) => data[key],
    set: (key, value) => {
      data[key] = structuredClone(value);
    },
    delete: (key) => {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a key-value store
      delete data[key];
    },
  };
}

/** A check going down, as the agent announces it. */
export const down = (name: string, at = 0): CheckTransition => ({
  guid: `g-${name}`,
  name,
  kind: 'down',
  error: `connect ECONNREFUSED (${name})`,
  at: new Date(at).toISOString(),
});
/** The same check recovering. */
export const recovered = (name: string, at = 0): CheckTransition => ({
  guid: `g-${name}`,
  name,
  kind: 'recovered',
  at: new Date(at).toISOString(),
});

/** The files under root whose bytes contain needle (a key must never be found in clear). */
export async function filesContaining(root: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    if ((await readFile(file)).includes(needle)) hits.push(file);
  }
  return hits;
}
