// Serves the built renderer. Only files inside the renderer folder, only GET/HEAD; the HTML
// carries a strict Content-Security-Policy (own scripts and styles only, API calls to ourselves,
// no framing), the same policy the desktop window gets.
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export const commonHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
} as const;

/** Resolves a URL path inside root; undefined for anything that would step outside it. */
export function fileInside(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const relative = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^[/\\]+/, '');
  const file = join(root, relative);
  return file.startsWith(root + sep) ? file : undefined;
}

export async function serveStatic(req: IncomingMessage, res: ServerResponse, root: string, urlPath: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...commonHeaders, allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
    return;
  }
  const file = fileInside(root, urlPath);
  const found = file === undefined ? undefined : await stat(file).then((s) => (s.isFile() ? file : undefined), () => undefined);
  if (found === undefined) {
    res.writeHead(404, { ...commonHeaders, 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  const type = types[extname(found)] ?? 'application/octet-stream';
  const body = await readFile(found);
  const html = type.startsWith('text/html');
  res.writeHead(200, {
    ...commonHeaders,
    'content-type': type,
    'content-length': body.length,
    // Built assets have hashed names; the page itself must always be fresh.
    'cache-control': html ? 'no-store' : 'public, max-age=31536000, immutable',
    ...(html ? { 'content-security-policy': contentSecurityPolicy } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
