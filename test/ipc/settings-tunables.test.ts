import { describe, expect, it } from 'vitest';
import { settingsSchema } from '../../src-main/ipc/contract.ts';
import { networkFrom, tunablesFrom } from '../../src-main/ipc/settings-tunables.ts';

describe('tunablesFrom', () => {
  it('keeps every default when nothing is set', () => {
    expect(tunablesFrom(settingsSchema.parse({}))).toEqual({});
  });

  it('maps intervals, connectivity targets and the outbox bound', () => {
    const settings = settingsSchema.parse({
      intervals: { syncSec: 30, pingSec: 0.5 },
      connectivityTargets: ['192.0.2.1:443'],
      outboxLimits: { maxResults: 100_000, maxMegabytes: 64 },
    });
    expect(tunablesFrom(settings)).toEqual({
      syncIntervalMs: 30_000,
      pingIntervalMs: 500,
      connectivityTargets: ['192.0.2.1:443'],
      outboxMaxCount: 100_000,
      outboxMaxBytes: 64 * 1024 * 1024,
    });
  });

  it.each([
    { name: 'a tiny outbox', value: { outboxLimits: { maxResults: 10 } } },
    { name: 'a fractional size', value: { outboxLimits: { maxMegabytes: 1.5 } } },
    { name: 'a zero interval', value: { intervals: { syncSec: 0 } } },
  ])('the schema refuses $name', ({ value }) => {
    expect(settingsSchema.safeParse(value).success).toBe(false);
  });

  it('maps the office-network settings, with their defaults', () => {
    expect(networkFrom(settingsSchema.parse({}))).toEqual({
      checksUseProxy: false,
      egressPolicy: 'open',
      proxyUrl: undefined,
      serverCaFile: undefined,
      checksCaFile: undefined,
    });
    const set = settingsSchema.parse({
      proxyUrl: ' http://p:3128 ',
      checksUseProxy: true,
      serverCaFile: '/ca.pem',
      checksCaFile: '/c.pem',
      egressPolicy: 'strict',
    });
    expect(networkFrom(set)).toEqual({
      proxyUrl: 'http://p:3128',
      checksUseProxy: true,
      serverCaFile: '/ca.pem',
      checksCaFile: '/c.pem',
      egressPolicy: 'strict',
    });
    expect(settingsSchema.safeParse({ egressPolicy: 'closed' }).success).toBe(false);
  });
});
