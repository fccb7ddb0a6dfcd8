// Why a call from the window (or the tray) to the app failed, as data: the kind and the facts its
// words need. The words are chosen in one place, ./ipc-error-words.ts; channel names, library
// text and errno names stay in the log (handlers.ts logs the thrown error whole).

export type IpcErrorKind =
  /** The window asked for a channel the app does not have: the two are of different versions. */
  | 'unknown-channel'
  /** The window sent arguments the app cannot use. */
  | 'bad-arguments'
  /** A request that did not come from the app's own pages. */
  | 'foreign-sender'
  /** The definitions file was named by a path that is not a full one. */
  | 'not-full-path'
  /** The logs folder could not be opened. */
  | 'logs-folder'
  /** A link that is not https, or carries credentials, is not opened. */
  | 'link-refused'
  /** The chosen definitions file is missing or broken: the ones in force stay. */
  | 'private-file-refused'
  /** The web dashboard does not open links for its page: the browser does. */
  | 'no-links-here'
  /** The app could not be reached (the page's agent stopped, or the app's main side did not answer). */
  | 'no-answer'
  /** The page's access token was refused. */
  | 'token-refused'
  /** The agent's web server answered with an error status. */
  | 'http-status'
  /** Anything else went wrong in the app while doing it; the log has the details. */
  | 'failed';

export interface IpcError {
  kind: IpcErrorKind;
  /** bad-arguments: the argument at fault. */
  field?: string;
  /** not-full-path, logs-folder: the path at fault; private-file-refused: the file in force (the user's own). */
  path?: string;
  /** private-file-refused: what is wrong with the file, in the reader's words (from its reader). */
  detail?: string;
  /** http-status: the status the agent's web server answered. */
  status?: number;
}

/** Thrown by a handler (or a host action) to say why, as data; anything else becomes 'failed'. */
export class IpcRefusal extends Error {
  readonly refusal: IpcError;
  constructor(refusal: IpcError) {
    super(`refused: ${refusal.kind}`);
    this.refusal = refusal;
    this.name = 'IpcRefusal';
  }
}

/** The error a failed call carries to the window. */
export const ipcErrorOf = (error: unknown): IpcError =>
  error instanceof IpcRefusal ? error.refusal : { kind: 'failed' };
