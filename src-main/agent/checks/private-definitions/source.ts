// The private definitions file as a live value: read at start, read again whenever it changes on
// disk, and onChange called with the new state. Reads are one at a time, so states never arrive
// out of order. Log lines carry counts and file-level errors, never a definition value.
import { resolve } from 'node:path';
import type { Logger } from '../../base/log.ts';
import { watchFile } from '../../base/file-watch.ts';
import { fileSignature, readSettled } from './read-settled.ts';
import { emptyState, nextState, sameContent, type PrivateDefinitionsState } from './state.ts';

export const privateDefinitionsDefaults = {
  /** Editors write a file in a burst of events; one read after 200 ms of quiet sees the result. */
  debounceMs: 200,
  /** Fallback for filesystems whose change events get lost: a stat every 2 s costs nothing. */
  pollMs: 2_000,
  /** Reads that saw the file move; past this the writer is still busy and its next event retries. */
  readAttempts: 5,
  /** Thousands of checks fit in a few hundred KiB; anything near this is not a definitions file. */
  maxBytes: 16 * 1024 * 1024,
};

export interface PrivateDefinitionsOptions {
  file: string;
  log: Logger;
  /** Called after the first read and after every read that changes entries, problems or fileError. */
  onChange: (state: PrivateDefinitionsState) => void;
  debounceMs?: number;
  pollMs?: number;
}

export interface PrivateDefinitionsSource {
  current(): PrivateDefinitionsState;
  /** Reads the file now (after a read in progress) and resolves with the resulting state. */
  reload(): Promise<PrivateDefinitionsState>;
  /** Stops watching; later reloads resolve with the last state without reading. */
  close(): void;
}

/** Starts reading and watching; current() is empty until the first read is done. */
export function createPrivateDefinitionsSource(options: PrivateDefinitionsOptions): PrivateDefinitionsSource {
  return start(options).source;
}

/** Starts reading and watching, and resolves once the first read is done. */
export async function openPrivateDefinitions(options: PrivateDefinitionsOptions): Promise<PrivateDefinitionsSource> {
  const { source, firstRead } = start(options);
  await firstRead;
  return source;
}

function start(options: PrivateDefinitionsOptions): { source: PrivateDefinitionsSource; firstRead: Promise<unknown> } {
  const file = resolve(options.file);
  const { log } = options;
  const debounceMs = options.debounceMs ?? privateDefinitionsDefaults.debounceMs;
  const pollMs = options.pollMs ?? privateDefinitionsDefaults.pollMs;
  let state = emptyState(file);
  let lastSignature: string | undefined;
  let reads = 0;
  let closed = false;
  let tail: Promise<unknown> = Promise.resolve();
  let queued: Promise<PrivateDefinitionsState> | undefined;

  const readOnce = async (): Promise<PrivateDefinitionsState> => {
    const read = await readSettled(file, {
      settleMs: debounceMs,
      attempts: privateDefinitionsDefaults.readAttempts,
      maxBytes: privateDefinitionsDefaults.maxBytes,
    });
    if (closed) return state;
    lastSignature = read.signature;
    const next = nextState(state, read.outcome, new Date().toISOString());
    const changed = reads === 0 || !sameContent(state, next);
    reads++;
    state = next;
    logRead(log, next);
    if (changed) notify(next);
    return next;
  };

  const notify = (next: PrivateDefinitionsState) => {
    try {
      options.onChange(next);
    } catch (error) {
      log.error(
        { file, err: String(error) },
        'a listener of the private definitions failed; the next change is delivered again',
      );
    }
  };

  const reload = (): Promise<PrivateDefinitionsState> => {
    if (closed) return Promise.resolve(state);
    // A read that has not started yet will see every change made so far: share it.
    if (queued !== undefined) return queued;
    const run = tail.then(() => {
      queued = undefined;
      return readOnce();
    });
    queued = run;
    tail = run.catch((error: unknown) => {
      log.error(
        { file, err: String(error) },
        'reading the private definitions file failed unexpectedly; the last state stays in use',
      );
    });
    return run;
  };

  const watch = watchFile({
    file,
    settleMs: debounceMs,
    pollMs,
    log,
    what: 'the private definitions file',
    changed: async () => (await fileSignature(file)) !== lastSignature,
    onChange: () => void reload().catch(() => undefined),
  });

  const source: PrivateDefinitionsSource = {
    current: () => state,
    reload,
    close() {
      closed = true;
      watch.close();
    },
  };
  return { source, firstRead: reload().catch(() => undefined) };
}

function logRead(log: Logger, state: PrivateDefinitionsState): void {
  const { file } = state;
  const errors = state.problems.filter((p) => p.severity === 'error').length;
  log.info({ file, entries: state.entries.size, problems: state.problems.length }, 'private definitions read');
  if (state.fileError !== undefined) {
    log.warn(
      { file, reason: state.fileError, ...(state.readErrorCode === undefined ? {} : { code: state.readErrorCode }) },
      'private definitions file not usable as it is',
    );
  }
  // Problem messages name entries and fields only, so they are safe to log; headless users see
  // them nowhere else.
  if (state.problems.length > 0) {
    log.warn(
      { file, errors, warnings: state.problems.length - errors, problems: state.problems.map((p) => p.message) },
      'private definitions file has entries to fix',
    );
  }
}
