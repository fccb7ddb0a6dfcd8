// The one temporary-folder helper of the tests: a fresh folder under the OS temp dir, which during
// a test run is the run's own folder, removed when the run ends (run-temp-folder.ts).
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

/** A data folder for an agent or the CLI (removed with the run's temporary folder). */
export const tempDataDir = async (): Promise<string> => (await tempDir()).path;
