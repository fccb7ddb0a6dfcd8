// The tcp probe: a connect, and when the check has a match string, the banner the service
// volunteers (SSH, SMTP, FTP greet first). Latency is the connect time.
//
// Banner wait: the first byte may take until the run's deadline (timeout_sec), because some
// services greet late on purpose; once bytes arrive, bannerIdleMs of silence, the peer closing,
// maxBannerBytes, or a decided match ends the banner. Nothing is ever sent to the service.
import { connect, type Socket } from 'node:net';
import type { CheckDefinition } from '../wire/schemas.ts';
import { traceConnect, type ConnectionTrace } from './trace.ts';
import { probeDefaults } from './defaults.ts';
import { capDetail } from './detail.ts';
import { cancelledError } from './errors.ts';
import { failure, invalidDefinition, outcomeOf, withRun, type Run } from './run.ts';
import { socketTarget, waitFor } from './socket-wait.ts';
import { createTextScanner, type ScanResult } from './text-scanner.ts';
import type { Probe } from './types.ts';
import { firstFailure, matchVerdict, responseTimeVerdict } from './verdict.ts';

type BannerEnd = 'settled' | 'idle' | 'closed' | 'deadline';

export const tcpProbe: Probe = async (def, ctx) => {
  const endpoint = socketTarget(def);
  if ('problem' in endpoint) return invalidDefinition(endpoint.problem);
  return withRun(def, ctx, async (run) => {
    const trace: ConnectionTrace = { startedAt: run.now() };
    const socket = connect({ host: endpoint.host, port: endpoint.port });
    // Errors after the connect (a reset while reading the banner) end the banner; without a
    // listener they would crash the process.
    socket.on('error', () => undefined);
    traceConnect(socket, trace, run.now);
    try {
      await waitFor(socket, 'connect', run.signal);
    } catch (err) {
      socket.destroy();
      return failure(run, run.reason(err, endpoint.host), trace);
    }
    const latencyMs = run.latencyAt(trace.connectedAt ?? run.now());
    if (def.match_string === '') {
      socket.destroy();
      return outcomeOf(run, trace, { latencyMs, error: responseTimeVerdict(latencyMs, def.max_response_time_ms).reason });
    }
    const { scan, end } = await readBanner(socket, def, run, trace);
    socket.destroy();
    const sample = capDetail(scan.sample, run.sampleChars);
    if (run.cancelled()) return outcomeOf(run, trace, { latencyMs, error: cancelledError, responseSample: sample, sampleKind: 'banner' });
    const verdict = firstFailure(
      matchVerdict('banner', def.match_string, def.match_mode, scan.found),
      responseTimeVerdict(latencyMs, def.max_response_time_ms),
    );
    const error = verdict.reason + (verdict.pass ? '' : why(scan, end, run));
    return outcomeOf(run, trace, { latencyMs, error, responseSample: sample, sampleKind: 'banner' });
  });
};

/** Why a banner may be missing, appended to a failed match so "not there" is not a mystery. */
function why(scan: ScanResult, end: BannerEnd, run: Run): string {
  if (scan.bytes > 0) return '';
  if (end === 'closed') return ' (the connection closed without a banner)';
  if (end === 'deadline') return ` (nothing received within ${run.timeoutSec} s)`;
  return '';
}

function readBanner(
  socket: Socket,
  def: CheckDefinition,
  run: Run,
  trace: ConnectionTrace,
): Promise<{ scan: ScanResult; end: BannerEnd }> {
  const scanner = createTextScanner({
    matchString: def.match_string,
    matchMode: def.match_mode,
    sampleChars: run.sampleChars,
    maxBytes: probeDefaults.maxBannerBytes,
  });
  return new Promise((resolve) => {
    let idle: NodeJS.Timeout | undefined;
    const finish = (end: BannerEnd): void => {
      clearTimeout(idle);
      socket.off('data', onData).off('close', onClose);
      run.signal.removeEventListener('abort', onAbort);
      resolve({ scan: scanner.finish(), end });
    };
    const onData = (chunk: Buffer): void => {
      trace.firstByteAt ??= run.now();
      if (scanner.push(chunk)) {
        finish('settled');
        return;
      }
      clearTimeout(idle);
      idle = setTimeout(() => finish('idle'), probeDefaults.bannerIdleMs);
    };
    const onClose = (): void => finish('closed');
    const onAbort = (): void => finish('deadline');
    if (run.signal.aborted) {
      finish('deadline');
      return;
    }
    socket.on('data', onData).once('close', onClose);
    run.signal.addEventListener('abort', onAbort, { once: true });
  });
}
