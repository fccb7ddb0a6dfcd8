// Secrets stay on their side of the bridge: the settings the window reads carry the proxy URL
// with its password masked, and a save that sends that masked URL back keeps the stored
// password (the window never had it to send). One rule for the desktop shell and the dashboard.
import type { Settings, SettingsPatch } from './contract.ts';

/** What the window sees in place of a proxy password (the settings form draws the same). */
export const proxyPasswordMask = '•••';

/** Masks a password may come back as: ours, and the *** of the agent's own messages. */
const maskForms = new Set([proxyPasswordMask, '***']);

/**
 * scheme://, user info and the rest, split as the URL parser does: the authority runs to the
 * first "/", "?" or "#", and its last "@" ends the user info (a password may hold "@").
 */
function split(url: string): { scheme: string; credentials: string; rest: string } | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
  if (scheme === undefined) return undefined;
  const after = url.slice(scheme.length);
  const authority = after.split(/[/?#]/, 1)[0] ?? '';
  const at = authority.lastIndexOf('@');
  if (at < 0) return undefined;
  return { scheme, credentials: authority.slice(0, at), rest: after.slice(at + 1) };
}

/** The proxy URL with its password (if any) masked; text without credentials as it is. */
export function maskProxyPassword(url: string): string {
  const parts = split(url);
  const colon = parts?.credentials.indexOf(':') ?? -1;
  if (parts === undefined || colon < 0) return url;
  return `${parts.scheme}${parts.credentials.slice(0, colon)}:${proxyPasswordMask}@${parts.rest}`;
}

/** The settings as they may cross to the window. */
export function settingsForWindow(settings: Settings): Settings {
  return settings.proxyUrl === undefined ? settings : { ...settings, proxyUrl: maskProxyPassword(settings.proxyUrl) };
}

function parts(url: string): { rest: string; user: string; password: string } | undefined {
  const found = split(url.trim());
  if (found === undefined) return undefined;
  const { scheme, credentials, rest } = found;
  const colon = credentials.indexOf(':');
  if (colon < 0) return undefined;
  let password = credentials.slice(colon + 1);
  try {
    password = decodeURIComponent(password);
  } catch {
    // Kept as typed: it is then no mask.
  }
  return { rest: `${scheme.toLowerCase()}${rest}`, user: credentials.slice(0, colon), password };
}

/**
 * The patch to store: a proxy URL that is the stored one with its password masked keeps the
 * stored password; any other proxy URL is the user's new one.
 */
export function keepStoredProxyPassword(patch: SettingsPatch, stored: Settings): SettingsPatch {
  if (patch.proxyUrl === undefined || stored.proxyUrl === undefined) return patch;
  const sent = parts(patch.proxyUrl);
  const kept = parts(stored.proxyUrl);
  if (sent === undefined || kept === undefined || !maskForms.has(sent.password)) return patch;
  if (sent.user !== kept.user || sent.rest !== kept.rest) return patch;
  return { ...patch, proxyUrl: stored.proxyUrl };
}
