// Quitting: the agent gets a bounded, graceful stop, then the process exits once.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src-main/agent/base/log.ts';
import { createQuitter } from '../../src-main/electron/lifecycle.ts';
import { enrolledAgent } from '../support/agent-harness.ts';

describe('quit', () => {
  it('stops a real agent (with its last upload) and exits 0, once', async () => {
    const h = await enrolledAgent();
    try {
      const exits: number[] = [];
      const quitter = createQuitter({
        stop: () => h.agent.stop(),
        exit: (code) => exits.push(code),
        timeoutMs: 10_000,
        log: silentLogger,
      });
      expect(quitter.isQuitting()).toBe(false);
      const first = quitter.quit();
      expect(quitter.isQuitting()).toBe(true);
      expect(quitter.quit()).toBe(first);
      await first;
      expect(exits).toEqual([0]);
      // The store is closed: the agent really stopped.
      expect(() => h.agent.snapshot()).toThrow();
    } finally {
      await h.server.close();
    }
  });

  it('exits anyway when the stop takes too long', async () => {
    const exits: number[] = [];
    const quitter = createQuitter({
      stop: () => new Promise<void>(() => undefined),
      exit: (code) => exits.push(code),
      timeoutMs: 50,
      log: silentLogger,
    });
    await quitter.quit();
    expect(exits).toEqual([0]);
  });

  it('exits 1 when the stop fails', async () => {
    const exits: number[] = [];
    const quitter = createQuitter({
      stop: () => Promise.reject(new Error('disk gone')),
      exit: (code) => exits.push(code),
      timeoutMs: 1_000,
      log: silentLogger,
    });
    await quitter.quit();
    expect(exits).toEqual([1]);
  });
});
