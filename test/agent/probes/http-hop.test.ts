// How a hop's body is fed to the reader (issue 26): what has already arrived is taken at once,
// without waiting for the stream's events, and a body still arriving is read as it comes.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { feedBody } from '../../../src-main/agent/probes/http-hop.ts';

/** A body whose bytes have arrived; `complete` says whether its message has ended too. */
function arrived(chunks: string[], complete: boolean) {
  const body = new Readable({ read: () => undefined });
  for (const chunk of chunks) body.push(Buffer.from(chunk));
  if (complete) body.push(null);
  return { body, complete: () => complete };
}

describe('feedBody', () => {
  it('takes a body that arrived whole at once, listening for nothing', async () => {
    const hop = arrived(['ok', '\n'], true);
    const taken: string[] = [];
    const fed = feedBody(hop, (chunk) => {
      taken.push(chunk.toString());
      return false;
    });
    // Before any event could have been emitted: nothing left to wait for.
    expect(taken.join('')).toBe('ok\n');
    expect(hop.body.listenerCount('readable') + hop.body.listenerCount('end')).toBe(0);
    await fed;
  });

  it('stops at once when the reader has enough of what arrived', async () => {
    const hop = arrived(['enough'], false);
    let calls = 0;
    await feedBody(hop, () => ++calls > 0);
    expect(calls).toBe(1);
    expect(hop.body.listenerCount('readable')).toBe(0);
  });

  it('reads on as the rest arrives, until the body ends', async () => {
    const hop = arrived(['first '], false);
    const taken: string[] = [];
    const fed = feedBody(hop, (chunk) => {
      taken.push(chunk.toString());
      return false;
    });
    expect(taken).toEqual(['first ']);
    hop.body.push(Buffer.from('second'));
    hop.body.push(null);
    await fed;
    expect(taken.join('')).toBe('first second');
    expect(hop.body.listenerCount('readable') + hop.body.listenerCount('end')).toBe(0);
  });

  it('passes on an error of a body still arriving', async () => {
    const hop = arrived([], false);
    const fed = feedBody(hop, () => false);
    hop.body.destroy(new Error('reset'));
    await expect(fed).rejects.toThrow('reset');
  });
});
