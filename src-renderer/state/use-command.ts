// One command button's life: pending while the agent works, then its answer or its error, so
// every long operation shows progress and every failure is said where it happened. A command
// fails in two ways, both reported as `error` (never as a success): the call itself (no answer,
// bad arguments), or an answer that says the work failed (a sync the server did not take, a
// refused test run), which `failureOf` recognises and words from its kind.
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AgentBridge, IpcResult, RunResult } from '../../src-main/ipc/contract.ts';
import { runFailure } from '../words/command-words.ts';
import { commandCall } from '../words/failure-words.ts';

export interface Command<A extends unknown[], T> {
  /** The answer when the command did its work; undefined when it failed (then `error` says why). */
  run: (...args: A) => Promise<T | undefined>;
  pending: boolean;
  error: string | undefined;
  clearError: () => void;
}

export function useCommand<A extends unknown[], T>(
  call: (...args: A) => Promise<IpcResult<T>>,
  failureOf?: (value: T) => string | undefined,
): Command<A, T> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const run = useCallback(
    async (...args: A): Promise<T | undefined> => {
      setPending(true);
      setError(undefined);
      // A bridge that throws instead of answering: said as "no answer", never as its own text.
      const result = await call(...args).catch((): IpcResult<T> => ({ ok: false, error: { kind: 'no-answer' } }));
      const failed = result.ok ? failureOf?.(result.value) : ipcErrorWords(result.error);
      if (mounted.current) {
        setPending(false);
        if (failed !== undefined) setError(failed);
      }
      return result.ok && failed === undefined ? result.value : undefined;
    },
    // failureOf: a module-level function (src-renderer/words/command-words.ts), so stable.
    [call, failureOf],
  );
  return { run, pending, error, clearError: useCallback(() => setError(undefined), []) };
}

/** The commands that call the server now; each answers a RunResult, a failed one said as a failure. */
export type ServerCommandChannel = keyof typeof commandCall;

/** Sync now, Upload now or Send again, wherever its button is. */
export function useServerCommand(bridge: AgentBridge, channel: ServerCommandChannel): Command<[], RunResult> {
  return useCommand(
    useCallback(() => bridge.invoke(channel, {}), [bridge, channel]),
    runFailure[commandCall[channel]],
  );
}
