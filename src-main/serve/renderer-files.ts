// Serving the built renderer, shared by the desktop window's app:// protocol handler and the
// loopback web dashboard: one Content-Security-Policy, one set of headers, one rule for which
// files may be read (only those inside the renderer folder, only with GET or HEAD).
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
const { readFile } = process.getBuiltinModule('node:fs/promises');

/**
 * No inline script, no eval, nothing loaded from anywhere but the app itself. React sets styles
 * through the CSSOM, which style-src does not govern, so no 'unsafe-inline' is needed.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** On every answer, files and errors alike. */
export const securityHeaders = {
  'content-security-policy': contentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
} as const;

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The file an URL path (still percent-encoded) names inside `root`, or undefined when it would
 * leave it: decoded first, so that "..%2f" is judged as the "../" it means.
 */
export function fileInside(root: string, urlPath: string): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0')) return undefined;
  const base = resolve(root);
  const file = resolve(base, `.${sep}${pathname === '/' ? 'index.html' : pathname}`);
  const inside = relative(base, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return file;
}

/** An answer to send, whatever carries it (a fetch Response or a Node response). */
export interface RendererAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

const text = (status: number, message: string, extra: Record<string, string> = {}): RendererAnswer => ({
  status,
  headers: { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra },
  body: `${message}\n`,
});

/** Answers one request for a renderer file. HEAD answers carry the headers of GET, no body. */
export async function rendererFile(
  root: string,
  method: string | undefined,
  urlPath: string,
  read: (file: string) => Promise<Uint8Array> = readFile,
): Promise<RendererAnswer> {
  if (method !== 'GET' && method !== 'HEAD')
    return text(405, 'Only GET and HEAD are served here.', { allow: 'GET, HEAD' });
  const file = fileInside(root, urlPath);
  if (file === undefined) return text(403, 'This address is outside the app and is not served.');
  let body: Uint8Array;
  try {
    body = await read(file);
  } catch {
    return text(404, `Not found: ${urlPath}. The app files may be incomplete; reinstall Uptime Agent.`);
  }
  const type = contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream';
  return {
    status: 200,
    headers: {
      ...securityHeaders,
      'content-type': type,
      'content-length': String(body.length),
      // Built assets have hashed names; the page itself must always be fresh.
      'cache-control': type.startsWith('text/html') ? 'no-store' : 'public, max-age=31536000, immutable',
    },
    body: method === 'HEAD' ? '' : body,
  };
}
