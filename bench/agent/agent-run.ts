// The built headless command as users start it (the file itself, so its shebang's V8 flags
// apply), enrolled with a reference server in its own process that holds N checks at a 1 s
// interval, measured for a window after a warm-up.
import { spawnSync } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChild, stopChild } from './children.ts';
import { nextMessage, type Measured } from './measure.ts';
import { sampleProcess } from './proc-stats.ts';
import type { Target } from './target.ts';

export interface AgentMeasured extends Measured {
  checks: number;
  /** Results the server stored during the window. */
  stored: number;
  /** `status --json` at the end of the window. */
  unsentAtEnd: number | undefined;
}

interface BenchServer {
  url: string;
  token: string;
  stored(): Promise<number>;
  stop(): Promise<void>;
}

async function startServer(folder: string, checks: number, targetUrl: string): Promise<BenchServer> {
  const script = new URL('./server-process.ts', import.meta.url).pathname;
  const child = startChild(process.execPath, [script, join(folder, 'server.db'), String(checks), targetUrl], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = await nextMessage(child, (m) => (typeof m === 'object' && m !== null && 'url' in m && 'token' in m ? { url: String(m.url), token: String(m.token) } : undefined));
  return {
    ...ready,
    stored: () => {
      const answer = nextMessage(child, (m) => (typeof m === 'object' && m !== null && 'stored' in m ? Number(m.stored) : undefined));
      child.send('stored');
      return answer;
    },
    stop: () => stopChild(child),
  };
}

function logTail(file: string): string {
  return readFileSync(file, 'utf8').trim().split('\n').slice(-5).join('\n');
}

export async function measureAgent(cli: string, checks: number, target: Target, folder: string, warmupS: number, windowS: number): Promise<AgentMeasured> {
  const dir = join(folder, `agent-${checks}`);
  const dataDir = join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  const server = await startServer(dir, checks, target.url);
  try {
    const env = { ...process.env, UPTIME_AGENT_ENROLL_TOKEN: server.token, UPTIME_AGENT_DATA_DIR: '' };
    const enroll = spawnSync(cli, ['enroll', '--server', server.url, '--name', 'bench', '--region', 'local', '--country', 'XX', '--city', 'Bench', '--data-dir', dataDir], { env, encoding: 'utf8', timeout: 30_000 });
    if (enroll.status !== 0) throw new Error(`enroll failed (exit ${enroll.status}): ${enroll.stderr.trim()}`);

    const logFile = join(dir, 'agent.log');
    const log = openSync(logFile, 'w');
    const agent = startChild(cli, ['run', '--data-dir', dataDir], { stdio: ['ignore', 'ignore', log], env });
    closeSync(log);
    const pid = agent.pid ?? 0;
    try {
      await sleep(warmupS * 1000);
      if (agent.exitCode !== null) throw new Error(`the agent exited with code ${agent.exitCode} during the warm-up:\n${logTail(logFile)}`);
      const before = { proc: sampleProcess(pid), served: await target.served(), stored: await server.stored() };
      let rssMb = before.proc.rssMb;
      for (let second = 0; second < windowS; second++) {
        await sleep(1000);
        rssMb = sampleProcess(pid).rssMb;
      }
      const after = { proc: sampleProcess(pid), served: await target.served(), stored: await server.stored() };
      const status = spawnSync(cli, ['status', '--json', '--data-dir', dataDir], { env, encoding: 'utf8', timeout: 30_000 });
      const unsent = status.status === 0 ? (JSON.parse(status.stdout) as { unsent_results?: number }).unsent_results : undefined;
      return {
        checks,
        probes: after.served - before.served,
        cpuMs: after.proc.cpuMs - before.proc.cpuMs,
        rssMb,
        peakRssMb: after.proc.peakRssMb,
        windowS,
        stored: after.stored - before.stored,
        unsentAtEnd: unsent,
      };
    } finally {
      // The contract: a graceful stop within 15 s.
      await stopChild(agent, 20_000);
    }
  } finally {
    await server.stop();
  }
}
