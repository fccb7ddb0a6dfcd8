// HTTP bodies read as a browser would (issue 10 §3): Content-Encoding undone and the charset
// honoured before match_string is applied and the sample is cut, bounded like the raw read.
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import { startHttpTarget, type HttpTarget, type RouteSpec } from '../../targets/index.ts';
import { definition } from './definition.ts';

const page = '<html><body><h1>Welcome</h1> to the café</body></html>';
const html = (charset?: string): Record<string, string> => ({
  'content-type': charset === undefined ? 'text/html' : `text/html; charset=${charset}`,
});
const utf16be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();

const routes: Record<string, RouteSpec> = {
  '/gzip': { headers: { ...html(), 'content-encoding': 'gzip' }, body: gzipSync(page) },
  '/deflate-zlib': { headers: { ...html(), 'content-encoding': 'deflate' }, body: deflateSync(page) },
  '/deflate-raw': { headers: { ...html(), 'content-encoding': 'deflate' }, body: deflateRawSync(page) },
  '/br': { headers: { ...html(), 'content-encoding': 'br' }, body: brotliCompressSync(page) },
  '/gzip-then-br': { headers: { ...html(), 'content-encoding': 'gzip, br' }, body: brotliCompressSync(gzipSync(page)) },
  '/latin1': { headers: html('ISO-8859-1'), body: Buffer.from('Caf\xe9 ouvert', 'latin1') },
  '/cp1252': { headers: html('"windows-1252"'), body: Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80]) },
  '/utf16le-bom': {
    headers: html(),
    body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Café ouvert', 'utf16le')]),
  },
  '/utf16be-header': { headers: html('utf-16be'), body: utf16be('Café ouvert') },
  '/bom-wins': {
    headers: html('iso-8859-1'),
    body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Café ouvert')]),
  },
  '/meta-charset': {
    headers: html(),
    body: Buffer.from('<html><head><meta charset="iso-8859-1"></head>Caf\xe9 ouvert', 'latin1'),
  },
  '/meta-http-equiv': {
    headers: html(),
    body: Buffer.from(
      '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1252">Caf\xe9 ouvert',
      'latin1',
    ),
  },
  '/header-beats-meta': { headers: html('utf-8'), body: Buffer.from('<meta charset="iso-8859-1">Café ouvert') },
  '/unknown-charset': { headers: html('x-no-such-charset'), body: Buffer.from('Café ouvert') },
  '/gzip-latin1': {
    headers: { ...html('iso-8859-1'), 'content-encoding': 'gzip' },
    body: gzipSync(Buffer.from('Caf\xe9 ouvert', 'latin1')),
  },
  // 24 MiB of text in 24 KiB: the probe must stop inflating at its 4 MiB limit.
  '/bomb': { headers: { ...html(), 'content-encoding': 'gzip' }, body: gzipSync(Buffer.alloc(24 * 1024 * 1024, 'a')) },
  '/corrupt': {
    headers: { ...html(), 'content-encoding': 'gzip' },
    body: Buffer.concat([gzipSync(page).subarray(0, 12), Buffer.alloc(40, 7)]),
  },
  '/compress': { headers: { ...html(), 'content-encoding': 'compress' }, body: Buffer.from([0x1f, 0x9d, 0x90, 0, 0]) },
};

let target: HttpTarget;
beforeAll(async () => {
  target = await startHttpTarget(routes);
});
afterAll(async () => {
  await target.close();
});

const probe = (path: string, fields: Partial<CheckDefinition> = {}, sampleChars = 100) =>
  runProbe(definition({ url: `${target.url}${path}`, ...fields }), { sampleChars });

describe('Content-Encoding', () => {
  it.each(['/gzip', '/deflate-zlib', '/deflate-raw', '/br', '/gzip-then-br'])(
    '%s is decoded before matching and sampling',
    async (path) => {
      const out = await probe(path, { match_string: 'Welcome' });
      expect(out).toMatchObject({ success: true, error: '', decidedBy: 'all-rules' });
      expect(await probe(path, { match_string: 'Welcome', match_mode: 'not_contains' })).toMatchObject({
        success: false,
        decidedBy: 'match',
      });
      const sampled = await probe(path);
      expect(sampled.responseSample).toBe(page);
    },
  );

  it('a compression bomb stops at the 4 MiB limit with a clear reason', async () => {
    const out = await probe('/bomb', { match_string: 'Welcome' });
    expect(out).toMatchObject({
      success: false,
      decidedBy: 'match',
      error: 'first 4 MiB of the body (decoded from gzip) does not contain "Welcome"',
    });
    expect(out.responseSample).toBe('a'.repeat(100));
  });

  it('corrupt compressed data fails a match with a reason that says so', async () => {
    expect(await probe('/corrupt', { match_string: 'Welcome' })).toMatchObject({
      success: false,
      decidedBy: 'body',
      error: 'the body is not valid gzip data (Content-Encoding: gzip)',
    });
  });

  it('an encoding the agent cannot decode fails a match, not a status-only check', async () => {
    expect(await probe('/compress', { match_string: 'Welcome' })).toMatchObject({
      success: false,
      decidedBy: 'body',
      error: 'the body uses Content-Encoding "compress", which the agent cannot decode',
    });
    expect(await probe('/compress')).toMatchObject({ success: true, responseSample: '' });
  });
});

describe('charset', () => {
  it.each([
    { path: '/latin1', sample: 'Café ouvert' },
    { path: '/cp1252', sample: 'Café €' },
    { path: '/utf16le-bom', sample: 'Café ouvert' },
    { path: '/utf16be-header', sample: 'Café ouvert' },
    { path: '/bom-wins', sample: 'Café ouvert' },
    { path: '/unknown-charset', sample: 'Café ouvert' },
    { path: '/meta-charset', sample: '<html><head><meta charset="iso-8859-1"></head>Café ouvert' },
    {
      path: '/meta-http-equiv',
      sample: '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1252">Café ouvert',
    },
    { path: '/header-beats-meta', sample: '<meta charset="iso-8859-1">Café ouvert' },
    { path: '/gzip-latin1', sample: 'Café ouvert' },
  ])('$path: "Café" is found and sampled as written', async ({ path, sample }) => {
    expect(await probe(path, { match_string: 'Café' })).toMatchObject({ success: true, error: '' });
    expect(await probe(path, { match_string: 'Café', match_mode: 'not_contains' })).toMatchObject({
      success: false,
      error: 'body contains "Café"',
    });
    expect((await probe(path)).responseSample).toBe(sample);
  });
});
