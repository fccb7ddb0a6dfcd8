// What an operation leaves behind that would wake the process after it is over: timers it armed
// and never cleared, connections it opened and never closed. An agent at rest pays a wake-up for
// each (issue 26), so a call to the server or a check's run must end with nothing of its own left.
// async_hooks sees every such resource created and destroyed while the operation runs.
import { AsyncResource, createHook, executionAsyncId } from 'node:async_hooks';
import { setImmediate as turn } from 'node:timers/promises';

/** The resource kinds that wake the event loop later: a timer, a TCP connection. */
const waking = new Set(['Timeout', 'TCPWRAP']);

/**
 * Runs `operation`, then gives the event loop a few turns to finish closing what the operation
 * closed (a closed socket's handle goes away a turn later, after the peer's FIN), and lists what
 * is still there of what it created: e.g. ["Timeout", "TCPWRAP"]. Turns of the loop, not time:
 * nothing waits for a timer to prove it never fires. Only resources created by the operation's
 * own code count (its async descendants), not those of a loopback server in the same process
 * (Node's server arms a timer of its own to refresh its Date header once a second).
 */
export async function leftBehind(operation: () => Promise<unknown>): Promise<string[]> {
  const root = new AsyncResource('LEFT_BEHIND');
  const ours = new Set<number>([root.asyncId()]);
  const alive = new Map<number, string>();
  const hook = createHook({
    init(id, type, triggerId) {
      if (!ours.has(executionAsyncId()) && !ours.has(triggerId)) return;
      ours.add(id);
      if (waking.has(type)) alive.set(id, type);
    },
    destroy(id) {
      alive.delete(id);
    },
  });
  hook.enable();
  try {
    await root.runInAsyncScope(operation);
  } finally {
    // Still enabled, so that the closes the operation started are seen to finish.
    for (let i = 0; i < 50 && alive.size > 0; i++) await turn();
    hook.disable();
    root.emitDestroy();
  }
  return [...alive.values()].sort();
}
