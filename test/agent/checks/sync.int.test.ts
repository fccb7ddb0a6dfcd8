import { wireLimits } from '../../../src-main/agent/wire/limits.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { getCheck, listChecks } from '../../../src-main/agent/store/checks.ts';
import { getMeta, setMeta } from '../../../src-main/agent/store/meta.ts';
import { enrolledAgent, type Harness } from '../../support/agent-harness.ts';

/** Sync is driven by hand here: the loops run on a long interval. */
const manual = {
  syncIntervalMs: 3_600_000,
  uploadIntervalMs: 3_600_000,
  statusIntervalMs: 3_600_000,
  pingIntervalMs: 3_600_000,
};

describe('check sync against the reference server', () => {
  let h: Harness;
  afterEach(() => h.close());

  const sync = async () => {
    const outcome = await h.agent.syncNow();
    if (!outcome.ok) throw new Error(outcome.error.message);
    return outcome;
  };

  it('follows deltas with server_time as the cursor, including changes within the same second', async () => {
    h = await enrolledAgent({ tunables: manual });
    const { admin } = h.server;
    const a = h.assignCheck({ name: 'A', url: 'http://127.0.0.1:9/a' });
    const first = await sync();
    expect(first.summary).toMatchObject({ received: 1, added: 1 });
    expect(getMeta(h.store.db, 'sync_cursor')).toBe(first.cursor);
    // The very first sync after enrollment asks for everything (no since).
    expect(h.server.requests({ endpoint: 'checks' })[0]?.query ?? '').not.toContain('since');

    // Several changes in quick succession: each must arrive exactly once, none lost.
    const b = h.assignCheck({ name: 'B', url: 'http://127.0.0.1:9/b' });
    admin.updateCheck(a.guid, { name: 'A2' });
    const second = await sync();
    expect(second.summary).toMatchObject({ received: 2, added: 1, updated: 1 });
    expect(h.server.requests({ endpoint: 'checks' }).at(-1)?.query).toContain(encodeURIComponent(first.cursor));
    admin.updateCheck(b.guid, { interval_sec: 30 });
    admin.updateCheck(b.guid, { interval_sec: 31 });
    const third = await sync();
    expect(third.summary.received).toBe(1);
    expect(getCheck(h.store.db, b.guid)?.check.interval_sec).toBe(31);
    const idle = await sync();
    expect(idle.summary.received).toBe(0);
    expect(listChecks(h.store.db).map((c) => c.check.name)).toEqual(['A2', 'B']);
  });

  it.each([
    { name: 'deleted', act: (h: Harness, guid: string) => h.server.admin.deleteCheck(guid) },
    { name: 'disabled', act: (h: Harness, guid: string) => h.server.admin.updateCheck(guid, { enabled: false }) },
    { name: 'unassigned', act: (h: Harness, guid: string) => h.server.admin.unassign(guid, h.monitorId) },
  ])('stops a check that is $name', async ({ act }) => {
    h = await enrolledAgent({ tunables: manual });
    const c = h.assignCheck({ name: 'C', url: 'http://127.0.0.1:9/c' });
    await sync();
    expect(h.agent.runnable().runnable.has(c.guid)).toBe(true);
    act(h, c.guid);
    const outcome = await sync();
    expect(outcome.summary.stopped).toBe(1);
    expect(getCheck(h.store.db, c.guid)?.active).toBe(false);
    expect(h.agent.runnable().runnable.has(c.guid)).toBe(false);
  });

  it('keeps a private-definition check, flagged, and does not run it without a local entry', async () => {
    h = await enrolledAgent({ tunables: manual });
    const c = h.assignCheck({
      name: 'Secret',
      url: 'https://intranet.example/',
      match_string: 'ok',
    });
    h.server.admin.makePrivateDefinition(c.guid);
    await sync();
    expect(getCheck(h.store.db, c.guid)).toMatchObject({ privateDefinition: true, active: true, check: { url: '' } });
    expect(h.agent.runnable().missingPrivate).toEqual([c.guid]);
  });

  it.each([
    {
      name: 'not JSON',
      inject: (h: Harness) => h.server.faults.invalidJson({ endpoint: 'checks', times: 1 }),
      says: 'not JSON',
    },
    {
      name: 'a wrong schema',
      inject: (h: Harness) => h.server.faults.schemaViolation({ endpoint: 'checks', times: 1 }),
      says: 'unexpected body',
    },
    {
      name: 'a 503',
      inject: (h: Harness) => h.server.faults.respond(503, { endpoint: 'checks', times: 1 }),
      says: '503',
    },
    {
      name: 'a huge answer',
      inject: (h: Harness) =>
        h.server.faults.hugeBody({ endpoint: 'checks', times: 1, bytes: wireLimits.syncAnswerBytes + 1 }),
      says: 'larger than',
    },
  ])('keeps the check set and cursor when the answer is $name', async ({ inject, says }) => {
    h = await enrolledAgent({ tunables: manual });
    const c = h.assignCheck({ name: 'C', url: 'http://127.0.0.1:9/c' });
    const good = await sync();
    h.server.admin.updateCheck(c.guid, { name: 'changed' });
    inject(h);
    const bad = await h.agent.syncNow();
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toContain(says);
    expect(getMeta(h.store.db, 'sync_cursor')).toBe(good.cursor);
    expect(getCheck(h.store.db, c.guid)?.check.name).toBe('C');
    expect(h.agent.state().loops.sync.lastError).toContain(says);
    // The next round picks the change up.
    await sync();
    expect(getCheck(h.store.db, c.guid)?.check.name).toBe('changed');
  });

  it('resets a corrupt cursor that the server refuses (400) and resyncs everything once', async () => {
    h = await enrolledAgent({ tunables: manual });
    h.assignCheck({ name: 'C', url: 'http://127.0.0.1:9/c' });
    await sync();
    setMeta(h.store.db, 'sync_cursor', 'garbage');
    const outcome = await sync();
    expect(outcome.cursorWasReset).toBe(true);
    expect(outcome.summary.received).toBe(1);
    const queries = h.server
      .requests({ endpoint: 'checks' })
      .slice(-2)
      .map((r) => r.query);
    expect(queries[0]).toContain('since=garbage');
    expect(queries[1]).not.toContain('since');
  });

  it('re-enrolling (a reclaim) resets the cursor and the whole set arrives again', async () => {
    h = await enrolledAgent({ tunables: manual });
    h.assignCheck({ name: 'C', url: 'http://127.0.0.1:9/c' });
    await sync();
    h.server.admin.resetEnrollment(h.monitorId);
    const again = await h.agent.enroll({
      server: h.server.url,
      token: h.token,
      name: 'n',
      region: 'r',
      country: 'c',
      city: 'x',
      reclaimId: h.monitorId,
    });
    expect(again.ok).toBe(true);
    expect(getMeta(h.store.db, 'sync_cursor')).toBeUndefined();
    expect((await sync()).summary.received).toBe(1);
  });
});
