// Every contract channel on ipcMain, each behind the same sender check: only the app's own pages
// (app://agent) may call the agent. Anything else (an iframe, a page that got navigated
// somewhere, a stray webview) gets a refusal value, never a thrown error.
import type { EventHub } from '../ipc/events.ts';
import { invokeArgs, type InvokeChannel, type IpcResult } from '../ipc/contract.ts';
import type { IpcError } from '../ipc/ipc-error.ts';
import type { InvokeHandler } from '../ipc/handlers.ts';
import type { Logger } from '../agent/base/log.ts';
import { isAppUrl } from './app-protocol.ts';
import type { WindowController } from './window.ts';

/** What an ipcMain.handle listener receives as its event, narrowed to what is checked. */
export interface InvokeEventLike {
  readonly senderFrame: { readonly url: string } | null;
}

/** The parts of Electron's `ipcMain` used here. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, args: unknown) => Promise<IpcResult<unknown>>): void;
  removeHandler(channel: string): void;
}

export interface IpcDeps {
  ipcMain: IpcMainLike;
  handle: InvokeHandler;
  hub: EventHub;
  window: Pick<WindowController, 'send'>;
  log: Logger;
}

export const foreignSenderError: IpcError = { kind: 'foreign-sender' };

export const channels = Object.keys(invokeArgs) as InvokeChannel[];

/** Registers every channel and forwards agent events to the window; returns the undo. */
export function setupIpc({ ipcMain, handle, hub, window, log }: IpcDeps): () => void {
  for (const channel of channels) {
    ipcMain.handle(channel, (event, args) => {
      // senderFrame is null when the frame navigated away or was destroyed: not ours any more.
      const url = event.senderFrame?.url;
      if (!isAppUrl(url)) {
        log.warn({ channel, sender: url?.slice(0, 200) }, 'refused an IPC call from a foreign sender');
        return Promise.resolve({ ok: false, error: foreignSenderError });
      }
      return handle(channel, args);
    });
  }
  const unsubscribe = hub.subscribe((event, payload) => window.send(event, payload));
  return () => {
    unsubscribe();
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}
