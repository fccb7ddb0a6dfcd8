// Who this agent is, over its life: the identity in the key file is loaded at start, replaced by
// enroll (from the window or another process writing the key file) and dropped by forget. Each
// change stops the monitoring loops, gives the live state a fresh start and starts the loops again
// under the new identity; the composition root only says how to stop and start them.
import type { Clock } from '../base/clock.ts';
import type { Logger } from '../base/log.ts';
import type { AgentTunables } from '../defaults.ts';
import { initialState, type LiveState } from '../live/state.ts';
import { isSendableCredential } from '../wire/api-client.ts';
import type { EnrollInput, EnrollOutcome } from './enrollment.ts';
import type { IdentityHolder } from './identity.ts';
import { watchIdentityFile, type IdentityWatch } from './identity-watch.ts';

export interface IdentityLifecycleDeps {
  identity: IdentityHolder;
  live: LiveState;
  log: Logger;
  clock: Clock;
  tunables: Pick<AgentTunables, 'keyFileSettleMs' | 'keyFilePollMs'>;
  /** The key file another process may write (headless); undefined when the vault is not a file. */
  keyFile: string | undefined;
  /** Results dropped so far (kept across a fresh live state). */
  dropped: () => number;
  startLoops: () => void;
  stopLoops: () => Promise<void>;
  /** After forget: what depended on the identity (the check set) starts over. */
  onForgotten: () => void;
}

export interface IdentityLifecycle {
  /** Loads the identity, starts the loops when enrolled, and follows the key file. */
  start(): Promise<void>;
  enroll(input: EnrollInput): Promise<EnrollOutcome>;
  forget(): Promise<void>;
  /** Stops following the key file (the loops are the caller's to stop). */
  close(): void;
}

export function createIdentityLifecycle(deps: IdentityLifecycleDeps): IdentityLifecycle {
  const { identity, live, log } = deps;
  let keyFileWatch: IdentityWatch | undefined;

  /** A key that cannot be sent is said at once, before any loop tries it (issue 11 §4). */
  function checkKey(): void {
    const key = identity.current()?.apiKey;
    if (key === undefined || isSendableCredential(key)) return;
    log.error('the stored API key is damaged and cannot be sent: enroll this agent again, or reclaim its monitor id.');
    live.update((s) => ({ ...s, auth: 'key-damaged' }));
  }

  /** After enroll or forget: a fresh live state that keeps only what the user chose (and a store problem). */
  function resetState(): void {
    live.update((s) => ({
      ...initialState(new Date(deps.clock.now()), deps.dropped()),
      paused: s.paused,
      startedAt: s.startedAt,
      ...(s.storeProblem === undefined ? {} : { storeProblem: s.storeProblem }),
      ...(s.storeFault === undefined ? {} : { storeFault: s.storeFault }),
    }));
  }

  /** `uptime-agent enroll` (a new monitor or a reclaim) wrote the key file: follow it. */
  async function followKeyFile(): Promise<void> {
    if (!(await identity.changed())) return;
    await deps.stopLoops();
    const enrolled = await identity.load();
    const view = identity.view();
    if (view === undefined) log.info('the key file was removed: not enrolled any more');
    else
      log.info({ monitorId: view.monitorId, server: view.server }, 'the key file changed: now working as this monitor');
    resetState();
    if (enrolled) {
      checkKey();
      deps.startLoops();
    }
  }

  return {
    async start() {
      if (await identity.load()) {
        checkKey();
        deps.startLoops();
      }
      if (deps.keyFile === undefined) return;
      keyFileWatch = watchIdentityFile(
        deps.keyFile,
        () =>
          void followKeyFile().catch((error: unknown) =>
            log.error({ err: error }, 'could not follow the changed key file'),
          ),
        { clock: deps.clock, settleMs: deps.tunables.keyFileSettleMs, pollMs: deps.tunables.keyFilePollMs },
      );
    },
    async enroll(input) {
      await deps.stopLoops();
      const outcome = await identity.enroll(input);
      if (outcome.ok) log.info({ monitorId: outcome.monitorId, server: outcome.server }, 'enrolled');
      if (await identity.load()) {
        resetState();
        checkKey();
        deps.startLoops();
      }
      return outcome;
    },
    async forget() {
      await deps.stopLoops();
      await identity.forget();
      deps.onForgotten();
      log.info('this agent forgot its monitor; enroll it again to resume');
      resetState();
    },
    close() {
      keyFileWatch?.close();
    },
  };
}
