// Bad local state (a read-only or full data folder, a damaged key file or store) is answered by
// every command with one line that says what happened and what to do, and exit code 8.
import { DataDirError } from '../agent/base/data-dir.ts';
import { DamagedKeyError } from '../agent/identity/key-vault.ts';

/**
 * One line for a data folder, key file or store that cannot be read. `run` itself sets a damaged
 * store aside (store/open-store.ts); what still reaches it here it could not, and it says so.
 */
export function localStateMessage(error: unknown, dataDir: string, command: 'run' | 'other' = 'other'): string {
  if (error instanceof DamagedKeyError || error instanceof DataDirError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EROFS')
    return `the data folder ${dataDir} is on a read-only file system; choose another with --data-dir`;
  if (code === 'ENOSPC') return `the disk holding ${dataDir} is full; free some space and try again`;
  if (code === 'EACCES' || code === 'EPERM')
    return `the data folder ${dataDir} cannot be read by this user (permission denied); run as the user who owns it`;
  const sqlite = (error as { errstr?: string }).errstr;
  if (sqlite !== undefined && command === 'run')
    return `the store in ${dataDir} cannot be used (${sqlite}) and was left as it is; check the disk it is on, or move agent.db aside and run again`;
  if (sqlite !== undefined)
    return `the store in ${dataDir} cannot be read (${sqlite}); "uptime-agent run" sets a damaged store aside and starts a new one`;
  return `the data folder ${dataDir} cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`;
}
