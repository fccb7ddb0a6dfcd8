// The agent as the window sees it: the latest snapshot (first asked for, then pushed on every
// change), the host's facts, and whether the link to the agent is up. Every view reads it here.
import { ipcErrorWords } from '../../src-main/ipc/ipc-error-words.ts';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { AgentBridge, AgentSnapshot, AppInfo } from '../../src-main/ipc/contract.ts';
import { onConnection, type ConnectionState } from '../bridge/connection.ts';

export interface AgentContextValue {
  bridge: AgentBridge;
  snapshot: AgentSnapshot | undefined;
  info: AppInfo | undefined;
  /** Why the first snapshot could not be loaded. */
  loadError: string | undefined;
  connection: ConnectionState;
  /** When the link to the agent dropped (ms), while it is down: what is shown is from then. */
  disconnectedAt: number | undefined;
  /** Commands that answer with a snapshot (pause, forget...) hand it in here at once. */
  acceptSnapshot: (snapshot: AgentSnapshot) => void;
  retry: () => void;
}

const AgentContext = createContext<AgentContextValue | undefined>(undefined);

/** Keeps the newer of two snapshots: a pushed one may overtake a command's answer. */
const newer = (current: AgentSnapshot | undefined, next: AgentSnapshot): AgentSnapshot =>
  current !== undefined && current.takenAt > next.takenAt ? current : next;

export function AgentProvider({ bridge, children }: { bridge: AgentBridge; children: ReactNode }) {
  const [snapshot, setSnapshot] = useState<AgentSnapshot | undefined>();
  const [info, setInfo] = useState<AppInfo | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [connection, setConnection] = useState<ConnectionState>('connected');
  const [disconnectedAt, setDisconnectedAt] = useState<number | undefined>();
  const [attempt, setAttempt] = useState(0);

  const acceptSnapshot = useCallback((next: AgentSnapshot) => setSnapshot((current) => newer(current, next)), []);

  useEffect(
    () =>
      onConnection((next) => {
        setConnection(next);
        setDisconnectedAt((since) => (next === 'connected' ? undefined : (since ?? Date.now())));
      }),
    [],
  );

  useEffect(() => {
    let live = true;
    // Subscribe first, so that no change between the request and its answer is missed.
    const off = bridge.on('agent:state-changed', (next) => {
      if (live) acceptSnapshot(next);
    });
    void Promise.all([bridge.invoke('agent:snapshot', {}), bridge.invoke('app:info', {})]).then(([first, facts]) => {
      if (!live) return;
      if (first.ok) {
        acceptSnapshot(first.value);
        setLoadError(undefined);
      } else setLoadError(ipcErrorWords(first.error));
      if (facts.ok) setInfo(facts.value);
    });
    return () => {
      live = false;
      off();
    };
  }, [bridge, acceptSnapshot, attempt]);

  const value = useMemo<AgentContextValue>(
    () => ({
      bridge,
      snapshot,
      info,
      loadError,
      connection,
      disconnectedAt,
      acceptSnapshot,
      retry: () => setAttempt((n) => n + 1),
    }),
    [bridge, snapshot, info, loadError, connection, disconnectedAt, acceptSnapshot],
  );
  return <AgentContext.Provider value={value}>{children}</AgentContext.Provider>;
}

export function useAgent(): AgentContextValue {
  const value = useContext(AgentContext);
  if (value === undefined) throw new Error('useAgent must be used inside <AgentProvider>');
  return value;
}
