// Bad local state, with real processes, a real reference server and real files: every command
// answers with one line and a documented exit code, `status` only reads, a damaged store never
// stops the monitoring, a stale lock is taken over, and the data folder is the user's alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, transaction } from '../../src-main/agent/store/database.ts';
import { createHistory } from '../../src-main/agent/store/history.ts';
import { createOutbox } from '../../src-main/agent/store/outbox.ts';
import type { WireResult } from '../../src-main/agent/wire/schemas.ts';
import { startReferenceServer, type ReferenceServer } from '../reference-server/index.ts';
import { withOrg } from '../reference-server/testing.ts';
import { eventually } from '../support/agent-harness.ts';
import { runCli, tempDataDir } from '../support/cli.ts';
import { enrollArgs, enrollDataDir, startRun, statusJson } from '../support/cli-agent.ts';
import { canMountTmpfs, mountSmallDisk, tmpfsSkipReason } from '../support/tmpfs.ts';

interface StatusJson {
  monitor_id: string | null;
  enrolled: boolean;
  unsent_results: number;
  aside_results: { monitor_id: string; count: number }[];
  store_problem: string | null;
}

const oneLine = (text: string): void => {
  expect(text.trim().split('\n')).toHaveLength(1);
  expect(text).not.toMatch(/\n\s+at |Error:/);
};

describe('uptime-agent with bad local state', () => {
  let server: ReferenceServer;
  let token: string;
  let orgId: string;
  let sleeper: ChildProcess | undefined;
  beforeAll(async () => {
    server = await startReferenceServer();
    ({ token, orgId } = withOrg(server));
  });
  afterAll(() => server.close());
  afterEach(() => sleeper?.kill());

  const enroll = (dataDir: string): Promise<string> => enrollDataDir(server, token, dataDir);
  const status = (dataDir: string): Promise<StatusJson> => statusJson<StatusJson>(dataDir);

  it('status on a folder that does not exist says "not enrolled" and creates nothing', async () => {
    const dataDir = join(await tempDataDir(), 'never-made');
    const result = await runCli(['status', '--json', '--data-dir', dataDir]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ enrolled: false, monitor_id: null, unsent_results: 0 });
    expect(existsSync(dataDir)).toBe(false);
  });

  it("status reads a stopped agent's store without creating or changing a file", async () => {
    const dataDir = await tempDataDir();
    const monitorId = await enroll(dataDir);
    const run = startRun(dataDir, ['--sync-interval', '0.2']);
    // Works while run holds the store.
    await eventually(
      async () => (await status(dataDir)).monitor_id === monitorId && existsSync(join(dataDir, 'agent.db')),
      20_000,
      'status during run',
    );
    const stopped = await run.stop();
    expect(stopped.code, stopped.stderr).toBe(0);
    const before = readdirSync(dataDir)
      .sort()
      .map((name) => [name, statSync(join(dataDir, name)).mtimeMs]);
    expect((await status(dataDir)).monitor_id).toBe(monitorId);
    const text = await runCli(['status', '--data-dir', dataDir]);
    expect(text.stdout).toContain(`monitor ${monitorId}`);
    expect(
      readdirSync(dataDir)
        .sort()
        .map((name) => [name, statSync(join(dataDir, name)).mtimeMs]),
    ).toEqual(before);
  });

  it('a damaged key file: status and run answer one line and exit 8', async () => {
    const dataDir = await tempDataDir();
    writeFileSync(join(dataDir, 'api-key'), '{"api_key":"k","monitor', { mode: 0o600 });
    const shown = await runCli(['status', '--data-dir', dataDir]);
    expect(shown.code).toBe(8);
    oneLine(shown.stderr);
    expect(shown.stderr).toContain('is damaged: enroll this agent again, or reclaim');
    const ran = await runCli(['run', '--data-dir', dataDir]);
    expect(ran.code).toBe(8);
    oneLine(ran.stderr);
    expect(ran.stderr).toContain('is damaged: enroll this agent again, or reclaim');
  });

  it('status on a store that is not a database answers one line with exit 8 and leaves it alone', async () => {
    const dataDir = await tempDataDir();
    writeFileSync(join(dataDir, 'agent.db'), Buffer.alloc(8192, 0x5a));
    const shown = await runCli(['status', '--json', '--data-dir', dataDir]);
    expect(shown.code).toBe(8);
    oneLine(shown.stderr);
    expect(shown.stderr).toContain(
      'cannot be read (file is not a database); "uptime-agent run" sets a damaged store aside',
    );
    expect(readdirSync(dataDir)).toEqual(['agent.db']);
  });

  it('run sets a damaged store aside, keeps its identity, delivers the unsent results it could read, and goes on', async () => {
    const dataDir = await tempDataDir();
    const monitorId = await enroll(dataDir);
    const check = server.admin.createCheck({ name: 'C', url: 'http://127.0.0.1:9/', interval_sec: 3600, orgId });
    server.admin.assign(check.guid, monitorId);
    // 50 unsent results in the store's first pages, then history, then garbage over the last pages.
    const file = join(dataDir, 'agent.db');
    const db = openDatabase(file);
    const result = (i: number): WireResult => ({
      check_guid: check.guid,
      monitor_id: monitorId,
      ran_at: new Date(Date.UTC(2026, 10, 21, 9, 0, i)).toISOString(),
      success: true,
      http_status: 200,
      latency_ms: 3,
    });
    transaction(db, () =>
      createOutbox(db, { maxCount: 1000, maxBytes: 1 << 20 }).insert(Array.from({ length: 50 }, (_, i) => result(i))),
    );
    const history = createHistory(db, 300);
    transaction(db, () =>
      history.insert(
        Array.from({ length: 3000 }, (_, i) => ({
          check_guid: `h${i % 10}`,
          ran_at: result(i).ran_at,
          success: true,
          skipped: false,
          http_status: 200,
          latency_ms: 4,
          error: 'x'.repeat(200),
        })),
      ),
    );
    db.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(32 * 1024, 0xa5), 0, 32 * 1024, statSync(file).size - 64 * 1024);
    closeSync(fd);

    const run = startRun(dataDir, ['--sync-interval', '0.2', '--upload-interval', '0.2']);
    // The check's own first run (a refusal, a real failure) is uploaded too, before or with them:
    // count the recovered results by their instants, not every result of the monitor.
    const recovered = new Set(Array.from({ length: 50 }, (_, i) => Date.parse(result(i).ran_at)));
    await eventually(
      () => server.results(monitorId).filter((r) => recovered.has(Date.parse(r.ranAt))).length === 50,
      20_000,
      'the recovered results delivered',
    );
    expect((await status(dataDir)).monitor_id).toBe(monitorId);
    const ran = await run.stop();
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain('the store was damaged');
    expect(ran.stderr).toMatch(/its 50 readable unsent results were moved into a new store/);
    expect(readdirSync(dataDir).filter((n) => /^agent\.db\.damaged-.*Z$/.test(n))).toHaveLength(1);
  });

  it('run takes over a lock left by a pid that is now an unrelated process, and says so', async () => {
    const dataDir = await tempDataDir();
    await enroll(dataDir);
    sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    writeFileSync(join(dataDir, 'agent.lock'), String(sleeper.pid));
    const run = startRun(dataDir);
    await eventually(() => run.log().includes('agent running'), 20_000, 'run started');
    const ran = await run.stop();
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain(
      `took over a stale lock on ${dataDir} (process ${sleeper.pid} is not an uptime-agent any more)`,
    );
  });

  it.skipIf(process.platform === 'win32')(
    'keeps the data folder 0700 and every file in it 0600, whatever the umask',
    async () => {
      const dataDir = join(await tempDataDir(), 'fresh');
      const umask = process.umask(0);
      let run;
      try {
        await enroll(dataDir);
        run = startRun(dataDir, ['--sync-interval', '0.2']);
      } finally {
        process.umask(umask);
      }
      const runFiles = ['agent.db-wal', 'agent.db-shm', 'agent.lock', 'live-state.json'];
      await eventually(() => runFiles.every((n) => existsSync(join(dataDir, n))), 20_000, 'run files');
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      // The running agent replaces live-state.json through a temporary file renamed over it, so a
      // listing can name that temporary file after it is gone: a name that no longer exists is left
      // out (what it held is live-state.json, read here too). Any other failure to read one counts.
      const modes = readdirSync(dataDir).flatMap((name): [string, number][] => {
        try {
          return [[name, statSync(join(dataDir, name)).mode & 0o777]];
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
          throw error;
        }
      });
      expect(modes.map(([name]) => name)).toEqual(expect.arrayContaining(['agent.db', ...runFiles]));
      expect(modes).toEqual(modes.map(([name]) => [name, 0o600]));
      const stopped = await run.stop();
      expect(stopped.code, stopped.stderr).toBe(0);
    },
  );

  describe.skipIf(!canMountTmpfs)(`a read-only data folder (${canMountTmpfs ? 'tmpfs' : tmpfsSkipReason})`, () => {
    it('run and enroll answer one line with exit 8; status still reads', async () => {
      const disk = mountSmallDisk(2048);
      try {
        const monitorId = await enroll(disk.dir);
        const first = startRun(disk.dir, ['--sync-interval', '0.2']);
        await eventually(() => existsSync(join(disk.dir, 'agent.db')), 20_000, 'the store');
        await first.stop();
        disk.readOnly(true);
        const run = await runCli(['run', '--data-dir', disk.dir]);
        expect(run.code).toBe(8);
        oneLine(run.stderr);
        expect(run.stderr).toContain('read-only');
        const again = await runCli(enrollArgs(server, token, disk.dir));
        expect(again.code).toBe(8);
        oneLine(again.stderr);
        expect(again.stderr).toContain('Nothing was sent to the server');
        const shown = await runCli(['status', '--json', '--data-dir', disk.dir]);
        expect([shown.code, shown.stderr]).toEqual([0, '']);
        expect((JSON.parse(shown.stdout) as StatusJson).monitor_id).toBe(monitorId);
      } finally {
        disk.readOnly(false);
        disk.unmount();
      }
    });
  });
});
