// Why the desktop app could not start, as a kind, and the dialog's words for it: what happened
// and what to do. The error's own text (a library's, an errno name, a CLI flag in the agent's
// message) goes to the log, never into the dialog.
import { DataDirError } from '../agent/base/data-dir.ts';
import { localCause } from '../agent/wire/failure.ts';

export type StartFailureKind = 'not-writable' | 'disk-full' | 'data-folder' | 'unexpected';

/** The first file-system error code in the error or its causes. */
function codeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

export function startFailureKind(error: unknown): StartFailureKind {
  if (error instanceof DataDirError) return error.kind === 'read-only' ? 'not-writable' : 'data-folder';
  const cause = localCause(codeOf(error));
  return cause === 'disk-full' || cause === 'not-writable' ? cause : 'unexpected';
}

export interface StartFailureText {
  title: string;
  body: string;
}

/** The dialog for a start that failed: a Record, so a new kind does not compile without words. */
const words: Record<StartFailureKind, (dataDir: string) => StartFailureText> = {
  'not-writable': (dataDir) => ({
    title: 'Uptime Agent cannot write to its data folder',
    body: `This user may not write to ${dataDir}, where Uptime Agent keeps its checks and unsent results. Make the folder writable for this user, then start Uptime Agent again.`,
  }),
  'disk-full': (dataDir) => ({
    title: 'The disk is full',
    body: `Uptime Agent cannot save anything in ${dataDir}: the disk holding it is full. Free some space, then start Uptime Agent again.`,
  }),
  'data-folder': (dataDir) => ({
    title: 'Uptime Agent cannot use its data folder',
    body: `${dataDir} cannot be used as Uptime Agent’s data folder (it may not be a folder, or belong to another user). Fix or move it aside, then start Uptime Agent again.`,
  }),
  unexpected: () => ({
    title: 'Uptime Agent could not start',
    body: 'Something unexpected stopped it while starting. Start it again; if it keeps happening, send the log with your report.',
  }),
};

/** The words for the dialog; the details are in the log, whose folder it names. */
export function startFailureText(error: unknown, folders: { dataDir: string; logsDir: string }): StartFailureText {
  const { title, body } = words[startFailureKind(error)](folders.dataDir);
  return { title, body: `${body}\n\nThe details are in the log, in ${folders.logsDir}.` };
}
