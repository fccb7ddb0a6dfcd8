// What the host can do when the window is a browser tab: no file dialog (the page sends a path),
// no file manager (the logs go to the terminal), and no opening of links (the page opens them).
import { IpcRefusal } from '../../ipc/ipc-error.ts';
import type { Logger } from '../../agent/base/log.ts';
import { agentVersion } from '../../agent/base/version.ts';
import type { AppInfo, CommandLineSettings } from '../../ipc/contract.ts';
import type { HostActions } from '../../ipc/handlers.ts';
const { hostname } = process.getBuiltinModule('node:os');

export function webHostActions(dataDir: string, log: Logger, commandLine?: CommandLineSettings): HostActions {
  const info: AppInfo = {
    version: agentVersion,
    logsFolder: 'standard error of the uptime-agent process (the terminal it runs in)',
    dataFolder: dataDir,
    host: 'web',
    platform: process.platform,
    hostName: hostname(),
    keyStorage: 'a file in the data folder that only your user account can read',
    ...(commandLine === undefined ? {} : { commandLine }),
    keyStorageWarning:
      'Anyone who can use your account on this computer can read it from the data folder. Keep that folder private, or use the desktop app, which encrypts the key with the OS keyring where one is available.',
  };
  return {
    info: () => info,
    chooseFile: () => Promise.resolve(undefined),
    openLogsFolder() {
      log.info('the dashboard asked for the logs folder: a headless agent logs to standard error');
      return Promise.resolve();
    },
    openExternal: () => Promise.reject(new IpcRefusal({ kind: 'no-links-here' })),
  };
}
