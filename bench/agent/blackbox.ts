// Prometheus blackbox_exporter driven by wrk (16 connections), when both are installed: the
// reference point of a compiled prober against the same target, measured like the agent.
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChild, stopChild } from './children.ts';
import { sampleProcess } from './proc-stats.ts';
import { freePort, waitForPort, type Target } from './target.ts';
import type { Measured } from './measure.ts';

function onPath(names: readonly string[]): string | undefined {
  for (const name of names) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

/** Why blackbox_exporter cannot be measured here, or the binaries to measure it with. */
export function findBlackbox(): { exporter: string; wrk: string } | string {
  const exporter = onPath(['prometheus-blackbox-exporter', 'blackbox_exporter']);
  const wrk = onPath(['wrk']);
  if (exporter === undefined || wrk === undefined)
    return `skipped: ${exporter === undefined ? 'prometheus-blackbox-exporter' : 'wrk'} is not installed`;
  return { exporter, wrk };
}

export async function measureBlackbox(
  bins: { exporter: string; wrk: string },
  target: Target,
  folder: string,
  warmupS: number,
  windowS: number,
): Promise<Measured> {
  const config = join(folder, 'blackbox.yml');
  // A fresh connection per probe is blackbox_exporter's own behaviour; ip4 keeps it on 127.0.0.1.
  await writeFile(
    config,
    'modules:\n  http_2xx:\n    prober: http\n    timeout: 5s\n    http:\n      preferred_ip_protocol: ip4\n',
  );
  const port = await freePort();
  const exporter = startChild(bins.exporter, [
    `--config.file=${config}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ]);
  try {
    await waitForPort(port, 'blackbox_exporter');
    const probeUrl = `http://127.0.0.1:${port}/probe?module=http_2xx&target=${encodeURIComponent(target.url)}`;
    const wrk = startChild(bins.wrk, ['-t2', '-c16', `-d${warmupS + windowS + 2}s`, probeUrl]);
    await sleep(warmupS * 1000);
    const before = { proc: sampleProcess(exporter.pid ?? 0), served: await target.served() };
    await sleep(windowS * 1000);
    const after = { proc: sampleProcess(exporter.pid ?? 0), served: await target.served() };
    await stopChild(wrk);
    return {
      probes: after.served - before.served,
      cpuMs: after.proc.cpuMs - before.proc.cpuMs,
      rssMb: after.proc.rssMb,
      peakRssMb: after.proc.peakRssMb,
      windowS,
    };
  } finally {
    await stopChild(exporter);
  }
}
