// The window's session: it serves the app protocol and grants no permission at all. The UI needs
// none (no camera, notifications come from main, links open in the system browser), so any
// request is either a bug or content that should not be there.
import { appProtocolHandler, appScheme } from './app-protocol.ts';
import type { Logger } from '../agent/base/log.ts';

/** The parts of Electron's `Session` used here. */
export interface SessionLike {
  protocol: { handle(scheme: string, handler: (request: Request) => Promise<Response>): void };
  setPermissionRequestHandler(
    handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
}

export interface SessionDeps {
  session: SessionLike;
  /** The built renderer folder (dist/renderer). */
  rendererRoot: string;
  log: Logger;
}

export function setupSession({ session, rendererRoot, log }: SessionDeps): void {
  session.protocol.handle(appScheme, appProtocolHandler(rendererRoot));
  session.setPermissionRequestHandler((_webContents, permission, callback) => {
    log.warn({ permission }, 'the window asked for a permission; denied (the app needs none)');
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
}
