// The one place a failed call from the window or the tray becomes words, from its kind and facts
// (./ipc-error.ts). A Record over every kind, so a new kind does not compile without words.
import type { IpcError, IpcErrorKind } from './ipc-error.ts';

const words: Record<IpcErrorKind, (e: IpcError) => string> = {
  'unknown-channel': () => 'The window and the app disagree (they are of different versions): restart Uptime Agent.',
  'bad-arguments': () => 'The window sent something the app cannot use: reload the window and try again.',
  'foreign-sender': () =>
    'Refused: this request did not come from the Uptime Agent window. Only the app’s own pages may use the agent.',
  'not-full-path': (e) =>
    `"${e.path ?? ''}" is not a full path: give the whole path of the definitions file, starting at the root of the disk.`,
  'logs-folder': (e) =>
    `The logs folder${e.path === undefined ? '' : ` ${e.path}`} could not be opened; open it from your file manager.`,
  'private-file-refused': (e) =>
    `${e.detail ?? 'The file cannot be used'}. The definitions from ${e.path ?? 'before'} stay in force.`,
  'no-links-here': () => 'The web dashboard does not open links for the page: open the link in your browser.',
  'link-refused': () => 'Only https links without credentials are opened; this one was refused.',
  'no-answer': () => 'The agent does not answer: check that uptime-agent is still running, then try again.',
  'token-refused': () => 'The agent refused this page’s access token: open the newest URL that uptime-agent printed.',
  'http-status': (e) =>
    `The agent could not do this${e.status === undefined ? '' : ` (it answered with status ${e.status})`}: try again; the agent's log says more.`,
  failed: () => 'This could not be done: try again. If it keeps failing, the app’s log says why.',
};

/** What went wrong, and what to do, in the reader's words. */
export const ipcErrorWords = (error: IpcError): string => words[error.kind](error);
