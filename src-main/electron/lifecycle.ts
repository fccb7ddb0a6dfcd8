// One app per user (a second launch brings the first one's window forward), and a quit that
// gives the agent a bounded time to stop gracefully (a last upload) before the process exits.
import type { Logger } from '../agent/base/log.ts';

/** The parts of Electron's `app` used for the single-instance lock. */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance', listener: () => void): unknown;
}

/** Returns false when another instance holds the lock: this one must quit at once. */
export function setupSingleInstance(app: SingleInstanceApp, onSecondInstance: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', onSecondInstance);
  return true;
}

export interface QuitDeps {
  /** The agent's graceful stop (and anything else to close). */
  stop(): Promise<void>;
  /** Ends the process (app.exit): no more events, no second round of before-quit. */
  exit(code: number): void;
  timeoutMs: number;
  log: Logger;
}

export interface Quitter {
  /** True from the first quit request on: windows may close for real. */
  isQuitting(): boolean;
  /** Stops within the time limit, then exits; later calls wait for the first. */
  quit(): Promise<void>;
}

export function createQuitter(deps: QuitDeps): Quitter {
  let quitting: Promise<void> | undefined;

  async function stopThenExit(): Promise<void> {
    deps.log.info('quitting: stopping the agent');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), deps.timeoutMs)));
    let code = 0;
    try {
      const outcome = await Promise.race([deps.stop().then(() => 'stopped' as const), late]);
      if (outcome === 'late')
        deps.log.warn(
          { timeoutMs: deps.timeoutMs },
          'the agent did not stop in time; exiting anyway (unsent results stay queued for next time)',
        );
    } catch (error) {
      deps.log.error({ err: error }, 'the agent failed while stopping; exiting anyway');
      code = 1;
    } finally {
      clearTimeout(timer);
    }
    deps.exit(code);
  }

  return {
    isQuitting: () => quitting !== undefined,
    quit() {
      quitting ??= stopThenExit();
      return quitting;
    },
  };
}
