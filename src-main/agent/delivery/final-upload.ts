// The last upload when the agent stops: worth trying only when a call can succeed (enrolled, the
// key accepted, the network up) and something is waiting; bounded so that stopping stays quick.
import type { Logger } from '../base/log.ts';

export interface FinalUploadDeps {
  log: Logger;
  enrolled: () => boolean;
  keyAccepted: () => boolean;
  offline: () => boolean;
  unsent: () => number;
  upload: (signal: AbortSignal) => Promise<unknown>;
  timeoutMs: number;
}

/** Whether a last upload before stopping can do any good. */
export function worthFinalUpload(deps: Omit<FinalUploadDeps, 'log' | 'upload' | 'timeoutMs'>): boolean {
  return deps.enrolled() && deps.keyAccepted() && !deps.offline() && deps.unsent() > 0;
}

export async function finalUpload(deps: FinalUploadDeps): Promise<void> {
  if (!worthFinalUpload(deps)) return;
  deps.log.info({ unsent: deps.unsent() }, 'last upload before stopping');
  await deps.upload(AbortSignal.timeout(deps.timeoutMs));
}
