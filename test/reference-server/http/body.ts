// Bounded request body reading. A body over the cap is not read further: the server answers at
// once (413 or 400) instead of buffering an arbitrary upload.
import type { IncomingMessage } from 'node:http';

export interface ReadBody {
  /** The bytes read, at most `cap` of them. */
  bytes: Buffer;
  /** The declared Content-Length or the streamed count went over the cap. */
  overflow: boolean;
  /** The whole body arrived (false after overflow or an aborted upload). */
  complete: boolean;
}

export function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

export function readBody(req: IncomingMessage, cap: number): Promise<ReadBody> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > cap) {
    return Promise.resolve({ bytes: Buffer.alloc(0), overflow: true, complete: false });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (overflow: boolean, complete: boolean) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      if (overflow) req.pause();
      resolve({ bytes: Buffer.concat(chunks).subarray(0, cap), overflow, complete });
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      chunks.push(chunk);
      if (total > cap) finish(true, false);
    };
    const onEnd = () => finish(false, true);
    const onAbort = () => finish(false, false);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}
