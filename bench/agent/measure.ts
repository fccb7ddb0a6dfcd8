// What one measured system yields, and the raw undici floor measured in its own process.
import { once } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { startChild, stopChild } from './children.ts';
import { sampleProcess, type ProcSample } from './proc-stats.ts';
import type { Target } from './target.ts';

export interface Measured {
  /** Requests the target served during the window. */
  probes: number;
  /** CPU of the prober process during the window. */
  cpuMs: number;
  rssMb: number;
  peakRssMb: number;
  windowS: number;
}

export const probesPerSecond = (m: Measured): number => m.probes / m.windowS;
export const cpuPerProbeMs = (m: Measured): number => m.cpuMs / m.probes;

/** Resolves with the child's next IPC message that `accept` takes; rejects if it exits first. */
export function nextMessage<T>(child: ChildProcess, accept: (message: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown): void => {
      const value = accept(message);
      if (value === undefined) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(value);
    };
    const onExit = (code: number | null): void => {
      child.off('message', onMessage);
      reject(new Error(`a bench process exited (code ${code}) before it reported`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function measureFloor(
  target: Target,
  warmupS: number,
  windowS: number,
  workers = 32,
): Promise<Measured & { failures: number }> {
  const script = new URL('./floor-process.ts', import.meta.url).pathname;
  const child = startChild(process.execPath, [script, target.url, String(warmupS), String(windowS), String(workers)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const pid = child.pid ?? 0;
  try {
    const at = async (phase: string): Promise<{ proc: ProcSample; served: number }> => {
      await nextMessage(child, (m) => (m === phase ? true : undefined));
      return { proc: sampleProcess(pid), served: await target.served() };
    };
    const finished = nextMessage(child, (m) =>
      typeof m === 'object' && m !== null && 'failures' in m ? Number(m.failures) : undefined,
    );
    finished.catch(() => undefined); // awaited below; a failure shows there
    const before = await at('measuring');
    const after = await at('done');
    const failures = await finished;
    return {
      probes: after.served - before.served,
      cpuMs: after.proc.cpuMs - before.proc.cpuMs,
      rssMb: after.proc.rssMb,
      peakRssMb: after.proc.peakRssMb,
      windowS,
      failures,
    };
  } finally {
    await stopChild(child);
  }
}

/** Waits for the process to exit; its exit code. */
export async function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}
