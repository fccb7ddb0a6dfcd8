// One command button's life: pending while the agent works, then its answer or its error, so
// every long operation shows progress and every failure is said where it happened.
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { IpcResult } from '../../src-main/ipc/contract.ts';

export interface Command<A extends unknown[], T> {
  run: (...args: A) => Promise<T | undefined>;
  pending: boolean;
  error: string | undefined;
  clearError: () => void;
}

export function useCommand<A extends unknown[], T>(call: (...args: A) => Promise<IpcResult<T>>): Command<A, T> {
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
      if (mounted.current) {
        setPending(false);
        if (!result.ok) setError(ipcErrorWords(result.error));
      }
      return result.ok ? result.value : undefined;
    },
    [call],
  );
  return { run, pending, error, clearError: useCallback(() => setError(undefined), []) };
}
