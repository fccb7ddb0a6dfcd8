// `window.agent` for the loopback web dashboard: the contract's invoke as POST requests and its
// events as one server-sent-events stream, open while anyone listens and reopened (with a
// growing pause) whenever it drops.
import type {
  AgentBridge,
  EventName,
  EventPayloads,
  InvokeChannel,
  InvokeResults,
  IpcResult,
} from '../../src-main/ipc/contract.ts';
import { eventsPath, ipcPath, tokenHeader } from '../../src-main/ipc/web-protocol.ts';
import { announceConnection } from './connection.ts';
import { readSse } from './sse.ts';

type Listener = (payload: unknown) => void;

const retryDelaysMs = [500, 1_000, 2_000, 5_000];

const isAborted = (signal: AbortSignal): boolean => signal.aborted;

export function createWebBridge(token: string, base = ''): AgentBridge {
  const listeners = new Map<EventName, Set<Listener>>();
  let streaming: AbortController | undefined;
  let failures = 0;

  const deliver = (event: string, data: string): void => {
    const set = listeners.get(event as EventName);
    if (set === undefined) return;
    const payload = JSON.parse(data) as unknown;
    for (const listener of set) listener(payload);
  };

  async function streamOnce(signal: AbortSignal): Promise<'again' | 'stop'> {
    const response = await fetch(`${base}${eventsPath}`, {
      headers: { [tokenHeader]: token },
      cache: 'no-store',
      signal,
    });
    if (response.status === 401) {
      announceConnection('unauthorized');
      return 'stop';
    }
    if (!response.ok || response.body === null) throw new Error(`events answered ${response.status}`);
    failures = 0;
    announceConnection('connected');
    await readSse(response.body, (message) => deliver(message.event, message.data));
    return 'again';
  }

  async function stream(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const next = await streamOnce(signal).catch(() => 'again' as const);
      // Re-read after the await: the last listener may have gone meanwhile.
      if (next === 'stop' || isAborted(signal)) return;
      announceConnection('reconnecting');
      const delay = retryDelaysMs[Math.min(failures, retryDelaysMs.length - 1)] ?? 5_000;
      failures += 1;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  const listening = (): boolean => [...listeners.values()].some((set) => set.size > 0);

  return {
    async invoke<C extends InvokeChannel>(channel: C, args: unknown): Promise<IpcResult<InvokeResults[C]>> {
      let response: Response;
      try {
        response = await fetch(`${base}${ipcPath}${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [tokenHeader]: token },
          body: JSON.stringify(args ?? {}),
          cache: 'no-store',
        });
      } catch {
        return { ok: false, error: { kind: 'no-answer' } };
      }
      if (response.status === 401) {
        announceConnection('unauthorized');
        return { ok: false, error: { kind: 'token-refused' } };
      }
      if (!response.ok) return { ok: false, error: { kind: 'http-status', status: response.status } };
      return (await response.json()) as IpcResult<InvokeResults[C]>;
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
      const set = listeners.get(event) ?? new Set<Listener>();
      listeners.set(event, set);
      set.add(listener as Listener);
      if (streaming === undefined) {
        streaming = new AbortController();
        void stream(streaming.signal);
      }
      return () => {
        set.delete(listener as Listener);
        if (!listening()) {
          streaming?.abort();
          streaming = undefined;
        }
      };
    },
  };
}
