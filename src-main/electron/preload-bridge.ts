// What the preload puts on `window.agent`: exactly the contract's AgentBridge. Channel and event
// names are checked here as well as in main, so a renderer bug (or injected script) cannot use
// the bridge to reach any other ipcRenderer channel; Electron's event object never crosses over.
import {
  isEventName,
  isInvokeChannel,
  type AgentBridge,
  type EventName,
  type EventPayloads,
  type IpcResult,
} from '../ipc/contract.ts';

/** The parts of Electron's `ipcRenderer` used here. */
export interface IpcRendererLike {
  invoke(channel: string, args: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

export function createBridge(ipc: IpcRendererLike): AgentBridge {
  return {
    invoke(channel, args) {
      if (!isInvokeChannel(channel)) return Promise.resolve({ ok: false, error: { kind: 'unknown-channel' } });
      return ipc.invoke(channel, args).then(
        (result) => result as IpcResult<never>,
        // The main side did not answer (it is stopping, or crashed): the window says so in words.
        () => ({ ok: false, error: { kind: 'no-answer' } }) as const,
      );
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void) {
      if (!isEventName(event)) return () => undefined;
      const forward = (_event: unknown, payload: unknown): void => listener(payload as EventPayloads[E]);
      ipc.on(event, forward);
      return () => {
        ipc.removeListener(event, forward);
      };
    },
  };
}
