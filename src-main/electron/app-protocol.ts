// The renderer is served from app://agent/ rather than file://, so that it has a real origin,
// a Content-Security-Policy header applies, and only the built renderer folder can be read.
import { rendererFile } from '../serve/renderer-files.ts';

export const appScheme = 'app';
export const appHost = 'agent';
export const appOrigin = `${appScheme}://${appHost}`;
export const appIndexUrl = `${appOrigin}/index.html`;

/** Electron's `protocol.registerSchemesAsPrivileged` entry, which must run before `ready`. */
export const appSchemePrivileges = {
  scheme: appScheme,
  // standard: relative URLs and an origin; secure: treated like https (no mixed-content blocks).
  privileges: { standard: true, secure: true, supportFetchAPI: true },
} as const;

export { contentSecurityPolicy } from '../serve/renderer-files.ts';

/** Is this URL one of the app's own pages (same scheme and host)? */
export function isAppUrl(url: string | undefined): boolean {
  if (url === undefined || url === '') return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${appScheme}:` && parsed.host === appHost;
  } catch {
    return false;
  }
}

/** The `protocol.handle` handler serving `root` (the built renderer). */
export function appProtocolHandler(
  root: string,
  read?: (file: string) => Promise<Uint8Array>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    // Another scheme or host never reaches the renderer folder.
    const path = url.protocol === `${appScheme}:` && url.host === appHost ? url.pathname : '/..';
    const answer = await rendererFile(root, request.method, path, read);
    const body = typeof answer.body === 'string' ? answer.body : new Uint8Array(answer.body);
    return new Response(body === '' ? null : body, { status: answer.status, headers: answer.headers });
  };
}
