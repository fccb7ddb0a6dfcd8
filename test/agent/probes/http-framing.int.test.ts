// Issue 26: the http probe writes its request and reads the answer with Node's parser (llhttp)
// itself, no longer through Node's HTTP client. What that client did for it still holds, on a
// real loopback server that writes exactly these bytes: the request as the client wrote it,
// interim 1xx answers passed over, a head or body arriving in pieces put together, a body
// bigger than what is held for a busy reader still read whole, a body running to the close.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import { startRawHttpTarget, type RawHttpTarget } from '../../targets/index.ts';
import { definition } from './definition.ts';

// ~260 KB compressed (random bytes barely compress): more than the 64 KiB held for a reader that
// is still decoding, so the connection is paused and resumed on the way to the match at the end.
const bigBody = Buffer.concat([
  Buffer.from(Array.from({ length: 200_000 }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('')),
  Buffer.from(' the-end-marker'),
]);
const bigGzip = gzipSync(bigBody, { level: 0 });

let target: RawHttpTarget;
beforeAll(async () => {
  target = await startRawHttpTarget({
    '/interim':
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n' +
      'HTTP/1.1 200 OK\r\nContent-Length: 7\r\nContent-Type: text/plain\r\n\r\nhealthy',
    '/pieces': ['HTTP/1.1 200 OK\r\nContent-Ty', 'pe: text/pl', 'ain\r\nContent-Length: 11\r\n', '\r\nhello', ' world'],
    '/big-gzip': Buffer.concat([
      Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${bigGzip.length}\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      bigGzip,
    ]),
    '/http10': 'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nold but fine',
    '/redirect': 'HTTP/1.1 302 Found\r\nLocation: /pieces\r\nContent-Length: 0\r\n\r\n',
    '/not-http': 'SSH-2.0-OpenSSH_9.6\r\n',
  });
});
afterAll(async () => {
  await target.close();
});

const probe = (path: string, fields: Partial<CheckDefinition> = {}) =>
  runProbe(definition({ url: `${target.url}${path}`, ...fields }));

describe('the http probe on the wire', () => {
  it('writes the request as Node wrote it: Host first, the check headers, Connection: close', async () => {
    const before = target.requests.length;
    await probe('/pieces', { headers: { 'X-Team': 'caf\u00e9' } });
    const sent = target.requests[before] ?? '';
    expect(sent).toBe(
      `GET /pieces HTTP/1.1\r\nHost: ${new URL(target.url).host}\r\nX-Team: caf\u00e9\r\n` +
        `user-agent: ${sent.match(/user-agent: (.*)\r\n/)?.[1] ?? ''}\r\nConnection: close\r\n\r\n`,
    );
  });

  it('sends a POST body with its length in bytes, in UTF-8', async () => {
    const before = target.requests.length;
    await probe('/pieces', { post_data: '{"name":"caf\u00e9"}' });
    const sent = Buffer.from(target.requests[before] ?? '', 'latin1');
    expect(sent.toString('latin1')).toMatch(/^POST \/pieces HTTP\/1\.1\r\n/);
    expect(sent.toString('latin1')).toContain('\r\nContent-Length: 16\r\n\r\n');
    expect(sent.subarray(sent.indexOf('\r\n\r\n') + 4).toString('utf8')).toBe('{"name":"caf\u00e9"}');
  });

  it('passes over interim 1xx answers to the response proper', async () => {
    expect(await probe('/interim', { match_string: 'healthy' })).toMatchObject({
      success: true,
      httpStatus: 200,
      responseSample: 'healthy',
    });
  });

  it('puts together a head and a body that arrive in pieces', async () => {
    expect(await probe('/pieces', { match_string: 'hello world' })).toMatchObject({
      success: true,
      httpStatus: 200,
      responseSample: 'hello world',
    });
  });

  it('reads a compressed body larger than what is held for it to its end', async () => {
    expect(await probe('/big-gzip', { match_string: 'the-end-marker' })).toMatchObject({ success: true });
  });

  it('takes a body without a length as ending with the connection', async () => {
    expect(await probe('/http10', { match_string: 'old but fine' })).toMatchObject({ success: true, httpStatus: 200 });
  });

  it('follows a redirect read off the wire', async () => {
    expect(await probe('/redirect', { match_string: 'hello' })).toMatchObject({ success: true, httpStatus: 200 });
  });

  it('says what the parser says of an answer that is not HTTP', async () => {
    expect(await probe('/not-http')).toMatchObject({
      success: false,
      httpStatus: 0,
      error: 'invalid HTTP response (Expected HTTP/)',
    });
  });
});
