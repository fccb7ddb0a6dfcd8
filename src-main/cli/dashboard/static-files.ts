// Serves the built renderer to the dashboard page, with the same files, headers and policy the
// desktop window gets (serve/renderer-files.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { rendererFile, securityHeaders } from '../../serve/renderer-files.ts';

export { fileInside } from '../../serve/renderer-files.ts';

/** Every dashboard answer carries these (the API's too). */
export const commonHeaders = securityHeaders;

export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  urlPath: string,
): Promise<void> {
  const answer = await rendererFile(root, req.method, urlPath);
  res.writeHead(answer.status, answer.headers).end(answer.body);
}
