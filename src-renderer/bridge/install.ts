// Puts a bridge on `window.agent` when no preload did (the page is the web dashboard). The
// access token arrives once in the URL; it is moved to sessionStorage (this tab only) and taken
// out of the address bar, so it is not in the history, a bookmark or a screenshot.
import { tokenQueryParam } from '../../src-main/ipc/web-protocol.ts';
import { createWebBridge } from './web-bridge.ts';

const storageKey = 'uptime-agent-dashboard-token';

export type BridgeStatus = 'ready' | 'missing-token';

export function installBridge(): BridgeStatus {
  if (typeof window.agent === 'object') return 'ready';
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get(tokenQueryParam);
  if (fromUrl !== null && fromUrl !== '') {
    window.sessionStorage.setItem(storageKey, fromUrl);
    url.searchParams.delete(tokenQueryParam);
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  const token = window.sessionStorage.getItem(storageKey);
  if (token === null || token === '') return 'missing-token';
  window.agent = createWebBridge(token);
  return 'ready';
}
