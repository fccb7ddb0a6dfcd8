// What only the desktop can do for the IPC handlers: a file dialog, the file manager, the system
// browser, and facts about this installation.
import type { OpenDialogOptions, OpenDialogReturnValue } from 'electron';
import type { AppInfo } from '../ipc/contract.ts';
import type { HostActions } from '../ipc/handlers.ts';
import { safeExternalUrl } from './external-url.ts';
import { IpcRefusal } from '../ipc/ipc-error.ts';
import type { KeyStorage } from './key-vault.ts';
const { hostname } = process.getBuiltinModule('node:os');

export interface HostDeps {
  /** Electron's dialog.showOpenDialog, parented to the window when there is one. */
  showOpenDialog(options: OpenDialogOptions): Promise<Pick<OpenDialogReturnValue, 'canceled' | 'filePaths'>>;
  /** Electron's shell.openPath: resolves to an error message, '' on success. */
  openPath(path: string): Promise<string>;
  openExternal(url: string): Promise<void>;
  version: string;
  platform: NodeJS.Platform;
  logsFolder: string;
  dataFolder: string;
  keyStorage: KeyStorage;
}

export function desktopHostActions(deps: HostDeps): HostActions {
  return {
    info(): AppInfo {
      return {
        version: deps.version,
        logsFolder: deps.logsFolder,
        dataFolder: deps.dataFolder,
        host: 'desktop',
        platform: deps.platform,
        hostName: hostname(),
        keyStorage: deps.keyStorage.description,
        ...(deps.keyStorage.warning === undefined ? {} : { keyStorageWarning: deps.keyStorage.warning }),
      };
    },
    async chooseFile() {
      const answer = await deps.showOpenDialog({
        title: 'Choose the private definitions file',
        properties: ['openFile'],
        filters: [{ name: 'Private definitions (JSON)', extensions: ['json'] }],
      });
      return answer.canceled ? undefined : answer.filePaths[0];
    },
    async openLogsFolder() {
      const error = await deps.openPath(deps.logsFolder);
      if (error !== '') throw new IpcRefusal({ kind: 'logs-folder', path: deps.logsFolder });
    },
    async openExternal(url) {
      const safe = safeExternalUrl(url);
      if (safe === undefined) throw new IpcRefusal({ kind: 'link-refused' });
      await deps.openExternal(safe);
    },
  };
}
