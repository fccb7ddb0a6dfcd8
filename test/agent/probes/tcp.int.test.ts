// The tcp probe against real loopback services: connects, banners (text, binary, late, none).
import { afterAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../src-main/agent/probes/index.ts';
import type { CheckDefinition } from '../../../src-main/agent/wire/schemas.ts';
import { closedPort, startTcpTarget, type SocketTarget, type TcpTargetOptions } from '../../targets/index.ts';
import { definition } from './definition.ts';

const started: SocketTarget[] = [];
afterAll(async () => {
  await Promise.all(started.map((t) => t.close()));
});
const service = async (options: TcpTargetOptions): Promise<SocketTarget> => {
  const target = await startTcpTarget(options);
  started.push(target);
  return target;
};
const probe = async (options: TcpTargetOptions, fields: Partial<CheckDefinition> = {}, sampleChars?: number) => {
  const target = await service(options);
  return runProbe(definition({ url: target.url, ...fields }), sampleChars === undefined ? {} : { sampleChars });
};

const ssh = 'SSH-2.0-OpenSSH_9.6\r\n';

describe('tcp probe', () => {
  it('connect only: passes without reading, latency at least 1', async () => {
    const target = await service({ banner: ssh });
    const out = await runProbe(definition({ url: target.url }));
    expect(out).toMatchObject({ success: true, httpStatus: 0, error: '', responseSample: '' });
    expect(out.latencyMs).toBeGreaterThanOrEqual(1);
    expect(out.timings?.connectMs).toBeGreaterThanOrEqual(0);
    expect(target.connections()).toBe(1);
  });

  it('connect only works against a silent service', async () => {
    expect(await probe({}, {})).toMatchObject({ success: true });
  });

  it.each([
    {
      name: 'banner contains',
      options: { banner: ssh },
      fields: { match_string: 'SSH-2.0' },
      success: true,
      error: '',
      sample: ssh,
    },
    {
      name: 'banner does not contain: read until the timeout, which the error names',
      options: { banner: ssh },
      fields: { match_string: '220 ', timeout_sec: 1 },
      success: false,
      error: 'banner does not contain "220 " (banner cut at the 1 s timeout after 21 bytes)',
      sample: ssh,
    },
    {
      name: 'banner does not contain, service hung up after it',
      options: { banner: ssh, hangUp: true },
      fields: { match_string: '220 ' },
      success: false,
      error: 'banner does not contain "220 "',
      sample: ssh,
    },
    {
      name: 'not_contains passes',
      options: { banner: ssh },
      fields: { match_string: 'Dropbear', match_mode: 'not_contains' },
      success: true,
      error: '',
      sample: ssh,
    },
    {
      name: 'not_contains fails',
      options: { banner: ssh },
      fields: { match_string: 'OpenSSH', match_mode: 'not_contains' },
      success: false,
      error: 'banner contains "OpenSSH"',
      sample: ssh,
    },
    {
      name: 'late banner is waited for',
      options: { banner: ssh, bannerDelayMs: 300 },
      fields: { match_string: 'SSH-' },
      success: true,
      error: '',
      sample: ssh,
    },
    {
      name: 'binary banner: NUL shown as an escape, invalid UTF-8 replaced',
      options: { banner: Buffer.from([0x00, 0xff, 0x52, 0x46, 0x42, 0x20, 0x30, 0x30, 0x33]) },
      fields: { match_string: 'RFB 003' },
      success: true,
      error: '',
      sample: '\\x00\uFFFDRFB 003',
    },
    {
      name: 'hang-up without banner',
      options: { hangUp: true },
      fields: { match_string: 'SSH-' },
      success: false,
      error: 'banner does not contain "SSH-" (the connection closed without a banner)',
      sample: '',
    },
    {
      name: 'silent service until the deadline',
      options: {},
      fields: { match_string: 'SSH-', timeout_sec: 1 },
      success: false,
      error: 'banner does not contain "SSH-" (nothing received within 1 s)',
      sample: '',
    },
    {
      name: 'silent service passes not_contains',
      options: {},
      fields: { match_string: 'SSH-', match_mode: 'not_contains', timeout_sec: 1 },
      success: true,
      error: '',
      sample: '',
    },
  ])('$name', async ({ options, fields, success, error, sample }) => {
    const out = await probe(options, fields);
    expect(out).toMatchObject({ success, error, responseSample: sample, httpStatus: 0 });
    expect(out.latencyMs).toBeGreaterThanOrEqual(1); // the connect answered
  });

  it('a late banner: latency is the connect, the wait shows as first byte', async () => {
    const out = await probe({ banner: ssh, bannerDelayMs: 300 }, { match_string: 'SSH-' });
    expect(out.success).toBe(true);
    // The target's delay starts at its accept, which may run a little before the probe sees
    // its connect: leave slack in the lower bound.
    expect(out.timings?.firstByteMs).toBeGreaterThanOrEqual(250);
    expect(out.latencyMs).toBeLessThan(out.timings?.totalMs ?? 0);
  });

  it('banner reading stops at 4 KiB', async () => {
    const out = await probe({ banner: 'x'.repeat(64 * 1024) }, { match_string: 'y' }, 10_000);
    expect(out).toMatchObject({ success: false, error: 'banner does not contain "y" (banner cut at 4096 bytes)' });
    expect(out.responseSample).toBe('x'.repeat(4096));
  });

  // Issue 10 §4: pieces 300-600 ms apart were cut after 500 ms of silence.
  it('a banner arriving in slow pieces is read until the match', async () => {
    const pieces = [
      { afterMs: 50, text: '220-mail.test ESMTP\r\n' },
      { afterMs: 600, text: '220-please wait\r\n' },
      { afterMs: 600, text: '220 ready\r\n' },
    ];
    const out = await probe({ pieces }, { match_string: '220 ready', timeout_sec: 5 });
    expect(out).toMatchObject({ success: true, error: '', answered: true, decidedBy: 'all-rules' });
    expect(out.responseSample).toBe('220-mail.test ESMTP\r\n220-please wait\r\n220 ready\r\n');
  });

  it('sample is capped to sampleChars', async () => {
    expect((await probe({ banner: ssh }, { match_string: 'SSH' }, 3)).responseSample).toBe('SSH');
  });

  it.each([
    { name: 'missing port', url: 'tcp://127.0.0.1', error: 'tcp url needs a port' },
    { name: 'port zero', url: 'tcp://127.0.0.1:0', error: 'tcp url port must be between 1 and 65535' },
    { name: 'missing host', url: 'tcp://:22', error: 'invalid URL "tcp://:22"' },
  ])('invalid: $name', async ({ url, error }) => {
    expect(await runProbe(definition({ url }))).toMatchObject({
      success: false,
      error,
      invalidDefinition: true,
      latencyMs: 0,
    });
  });

  // A refusal proves the network works (design.md "Connectivity"): answered, though no data.
  it('connection refused', async () => {
    const out = await runProbe(definition({ url: `tcp://127.0.0.1:${await closedPort()}` }));
    expect(out).toMatchObject({
      success: false,
      latencyMs: 0,
      answered: true,
      decidedBy: 'connection',
      error: 'connection refused',
    });
  });

  it('DNS "no such name" is an answer', async () => {
    const out = await runProbe(definition({ url: 'tcp://nosuch.invalid:22' }));
    expect(out).toMatchObject({
      success: false,
      latencyMs: 0,
      answered: true,
      error: 'DNS lookup failed for nosuch.invalid',
    });
  });

  it('connects by host name and reports the lookup', async () => {
    const target = await service({});
    const out = await runProbe(definition({ url: `tcp://localhost:${target.port}` }));
    expect(out.success).toBe(true);
    expect(out.timings?.dnsMs).toBeGreaterThanOrEqual(0);
  });
});
