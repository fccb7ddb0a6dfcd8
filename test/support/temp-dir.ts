// The one temporary-folder helper of the tests: a fresh folder under the OS temp dir.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  path: string;
  remove(): Promise<void>;
}

export async function tempDir(prefix = 'uptime-agent-test-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A data folder for an agent or the CLI (left for the OS to clean, like other test folders). */
export const tempDataDir = async (): Promise<string> => (await tempDir()).path;
