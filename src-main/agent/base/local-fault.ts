// Failures of this machine, not of the network: out of file descriptors, memory or socket
// buffers. Such a failure says nothing about the target nor about connectivity (design.md "Fail
// closed"): it is never "no answer", never starts an outage, and the user is told what ran out.

export type LocalFault = 'descriptors' | 'memory' | 'buffers';

const faultByCode: Record<string, LocalFault> = {
  EMFILE: 'descriptors',
  ENFILE: 'descriptors',
  ENOMEM: 'memory',
  ERR_WORKER_OUT_OF_MEMORY: 'memory',
  ENOBUFS: 'buffers',
};

const resource: Record<LocalFault, string> = {
  descriptors: 'open files (file descriptors)',
  memory: 'memory',
  buffers: 'network buffers',
};

/** The local fault behind `err` (or anything it wraps), if it is one. */
export function localFaultOf(err: unknown): LocalFault | undefined {
  const queue: unknown[] = [err];
  for (let seen = 0; queue.length > 0 && seen < 10; seen++) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null) continue;
    const { code, cause, errors } = next as { code?: unknown; cause?: unknown; errors?: unknown };
    const fault = typeof code === 'string' ? faultByCode[code] : undefined;
    if (fault !== undefined) return fault;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
  }
  return undefined;
}

/** The run's error: what ran out, on this machine, not at the target. */
export const localFaultError = (fault: LocalFault): string =>
  `this machine ran out of ${resource[fault]}; the target was not checked`;

/** The problem the window and `status --json` show while runs fail this way. */
export const describeLocalFault = (fault: LocalFault, runs: number): string =>
  `This machine ran out of ${resource[fault]}: ${runs} check run${runs === 1 ? '' : 's'} could not be made. Close other programs or raise this user's limits; this is not a network outage.`;
