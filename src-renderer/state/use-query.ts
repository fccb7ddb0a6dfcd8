// One read from the agent, kept as loading / error / ready, read again when `deps` change or the
// user asks (retry). An answer that arrives after the view moved on is dropped.
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';
import { useCallback, useEffect, useState } from 'react';
import type { InvokeArgs, InvokeResults } from '../../src-main/ipc/contract.ts';
import { useAgent } from './agent-context.tsx';

type QueryChannel = 'outages:list' | 'server-absences:list' | 'settings:get';

export type QueryState<T> = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; value: T };

export function useQuery<C extends QueryChannel>(
  channel: C,
  args: InvokeArgs<C>,
  deps: readonly unknown[] = [],
): { state: QueryState<InvokeResults[C]>; retry: () => void; replace: (value: InvokeResults[C]) => void } {
  const { bridge } = useAgent();
  const [state, setState] = useState<QueryState<InvokeResults[C]>>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    void bridge.invoke(channel, args).then((result) => {
      if (live)
        setState(
          result.ok ? { kind: 'ready', value: result.value } : { kind: 'error', message: ipcErrorWords(result.error) },
        );
    });
    return () => {
      live = false;
    };
    // args is a literal at every call site; deps says when to read again.
  }, [bridge, channel, attempt, ...deps]);

  return {
    state,
    retry: useCallback(() => setAttempt((n) => n + 1), []),
    replace: useCallback((value: InvokeResults[C]) => setState({ kind: 'ready', value }), []),
  };
}
