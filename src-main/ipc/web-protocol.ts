// How the web dashboard carries the IPC contract over HTTP, shared by its server
// (src-main/cli/dashboard) and the renderer's web bridge. No imports: the renderer bundles it.

/** Every API request carries the per-run access token in this header. */
export const tokenHeader = 'x-uptime-agent-token';
/** POST `${ipcPath}${channel}` with the JSON arguments; the answer is the IpcResult. */
export const ipcPath = '/api/ipc/';
/** GET: server-sent events, `event: <EventName>` and `data: <JSON payload>`. */
export const eventsPath = '/api/events';
/** The page's URL carries the token in this query parameter once; the page then removes it. */
export const tokenQueryParam = 'token';
