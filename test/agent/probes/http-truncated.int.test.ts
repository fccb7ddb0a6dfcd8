// Issue 24 §4: a body that ends before its declared length (Content-Length) or before its last
// chunk is a failure with a clear reason, whatever the check matches. The probe still stops
// reading once the verdict is known (a match found early is not held up by the rest), so a cut it
// never read up to is not seen; a check without a match string reads the body to its end when it
// is short (the first 16 KiB at least), so a health page cut short fails.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import { startRawHttpTarget, type RawHttpTarget } from '../../targets/index.ts';
import { definition } from './definition.ts';

const forty = 'a'.repeat(36) + 'tail';
const compressed = gzipSync('Welcome '.repeat(200));

let target: RawHttpTarget;
beforeAll(async () => {
  target = await startRawHttpTarget({
    '/short': `HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\n${forty}`,
    '/whole': `HTTP/1.1 200 OK\r\nContent-Length: 40\r\nContent-Type: text/plain\r\n\r\n${forty}`,
    // 0x64 = 100 bytes announced, 40 sent, then the connection closes inside the chunk.
    '/mid-chunk': `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n64\r\n${forty}`,
    // Whole chunks, but the terminating zero-length chunk never comes.
    '/no-last-chunk': `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n28\r\n${forty}\r\n`,
    '/chunked-whole': `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n28\r\n${forty}\r\n0\r\n\r\n`,
    // No length at all: the body ends when the connection does, which is complete by definition.
    '/until-close': `HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${forty}`,
    '/gzip-short': Buffer.concat([
      Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${compressed.length}\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      compressed.subarray(0, 20),
    ]),
  });
});
afterAll(async () => {
  await target.close();
});

const probe = (path: string, fields: Partial<CheckDefinition> = {}, sampleChars?: number) =>
  runProbe(definition({ url: `${target.url}${path}`, ...fields }), sampleChars === undefined ? {} : { sampleChars });

describe('a body that ends early', () => {
  it.each([
    { path: '/short', fields: {}, error: 'the response ended early: 40 of 100 bytes arrived' },
    { path: '/short', fields: { match_string: 'missing' }, error: 'the response ended early: 40 of 100 bytes arrived' },
    {
      path: '/short',
      fields: { match_string: 'missing', match_mode: 'not_contains' },
      error: 'the response ended early: 40 of 100 bytes arrived',
    },
    { path: '/mid-chunk', fields: {}, error: 'the response ended early: the body stopped after 40 bytes' },
    { path: '/no-last-chunk', fields: {}, error: 'the response ended early: the body stopped after 40 bytes' },
    { path: '/gzip-short', fields: {}, error: `the response ended early: 20 of ${compressed.length} bytes arrived` },
    {
      path: '/gzip-short',
      fields: { match_string: 'missing' },
      error: `the response ended early: 20 of ${compressed.length} bytes arrived`,
    },
  ])('$path $fields fails: $error', async ({ path, fields, error }) => {
    const out = await probe(path, fields);
    expect(out).toMatchObject({ success: false, httpStatus: 200, answered: true, decidedBy: 'body', error });
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
  });

  it('is seen by a status-only check that keeps no sample', async () => {
    expect(await probe('/short', {}, 0)).toMatchObject({
      success: false,
      decidedBy: 'body',
      error: 'the response ended early: 40 of 100 bytes arrived',
    });
  });

  it('does not hold up a match already found: the verdict was known before the cut', async () => {
    expect(await probe('/short', { match_string: 'aaaa' })).toMatchObject({ success: true, error: '' });
  });

  it.each(['/whole', '/chunked-whole', '/until-close'])('%s: a whole body passes', async (path) => {
    expect(await probe(path)).toMatchObject({ success: true, error: '', responseSample: forty });
    expect(await probe(path, { match_string: 'tail' })).toMatchObject({ success: true, error: '' });
    expect(await probe(path, {}, 0)).toMatchObject({ success: true, error: '' });
  });
});
