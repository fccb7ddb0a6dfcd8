// Issue 24 §11: Content-Encoding zstd is decoded as browsers do, bounded like gzip and br: the
// 4 MiB cap applies to the decoded bytes, and corrupt data is a body failure.
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import { startHttpTarget, type HttpTarget } from '../../targets/index.ts';
import { definition } from './definition.ts';

const page = '<html><body><h1>Welcome</h1> to the café</body></html>';
const zstd = { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'zstd' };

let target: HttpTarget;
beforeAll(async () => {
  target = await startHttpTarget({
    '/zstd': { headers: zstd, body: zstdCompressSync(page) },
    '/gzip-then-zstd': {
      headers: { ...zstd, 'content-encoding': 'gzip, zstd' },
      body: zstdCompressSync(gzipSync(page)),
    },
    // 24 MiB of text in a few hundred bytes: inflating stops at the 4 MiB limit.
    '/bomb': { headers: zstd, body: zstdCompressSync(Buffer.alloc(24 * 1024 * 1024, 'a')) },
    '/corrupt': { headers: zstd, body: Buffer.concat([zstdCompressSync(page).subarray(0, 6), Buffer.alloc(40, 7)]) },
  });
});
afterAll(async () => {
  await target.close();
});

const probe = (path: string, fields: Partial<CheckDefinition> = {}) =>
  runProbe(definition({ url: `${target.url}${path}`, ...fields }), { sampleChars: 100 });

describe('Content-Encoding: zstd', () => {
  it.each(['/zstd', '/gzip-then-zstd'])('%s is decoded before matching and sampling', async (path) => {
    expect(await probe(path, { match_string: 'Welcome' })).toMatchObject({ success: true, error: '' });
    expect(await probe(path, { match_string: 'café', match_mode: 'not_contains' })).toMatchObject({
      success: false,
      error: 'body contains "café"',
    });
    expect((await probe(path)).responseSample).toBe(page);
  });

  it('a zstd bomb stops at the 4 MiB limit with a clear reason', async () => {
    const out = await probe('/bomb', { match_string: 'Welcome' });
    expect(out).toMatchObject({
      success: false,
      decidedBy: 'match',
      error: 'first 4 MiB of the body (decoded from zstd) does not contain "Welcome"',
    });
    expect(out.responseSample).toBe('a'.repeat(100));
  });

  it('corrupt zstd data fails a match with a reason that says so', async () => {
    expect(await probe('/corrupt', { match_string: 'Welcome' })).toMatchObject({
      success: false,
      decidedBy: 'body',
      error: 'the body is not valid zstd data (Content-Encoding: zstd)',
    });
  });
});
