// The web bridge's link to the agent can drop (the agent stopped, the machine slept); the
// desktop bridge's cannot. The web bridge announces it with a window event, so the window can
// say so without the contract knowing about HTTP.
export type ConnectionState = 'connected' | 'reconnecting' | 'unauthorized';

export const connectionEvent = 'uptime-agent:connection';

export function announceConnection(state: ConnectionState): void {
  window.dispatchEvent(new CustomEvent<ConnectionState>(connectionEvent, { detail: state }));
}

export function onConnection(listener: (state: ConnectionState) => void): () => void {
  const handler = (event: Event): void => listener((event as CustomEvent<ConnectionState>).detail);
  window.addEventListener(connectionEvent, handler);
  return () => window.removeEventListener(connectionEvent, handler);
}
