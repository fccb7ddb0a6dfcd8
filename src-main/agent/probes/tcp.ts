// The tcp probe: a connect, and when the check has a match string, the banner the service
// volunteers (SSH, SMTP, FTP greet first). Latency is the connect time.
//
// Banner wait (issue 10 §4, issue 24 §8): a banner may arrive in pieces, so reading ends when the
// match is decided, the peer closes, maxBannerBytes arrived, or the banner window (3 s after the
// connect, as the server's own agent reads it) or the run's deadline passes, whichever is first:
// a greeter that then waits for the client is decided at the window, not held to timeout_sec.
// Nothing is ever sent to the service.
import type { Socket } from 'node:net';
import type { CheckDefinition } from '../wire/schemas.ts';
import type { ConnectionTrace } from './trace.ts';
import { probeDefaults } from './defaults.ts';
import { capDetail } from './detail.ts';
import { dialTcp } from './dial.ts';
import { cancelledError } from './errors.ts';
import { failure, invalidDefinition, outcomeOf, withRun, type Run } from './run.ts';
import { socketTarget } from './socket-wait.ts';
import { createTextScanner, type ScanResult } from './text-scanner.ts';
import type { Probe } from './types.ts';
import { firstFailure, matchVerdict, responseTimeVerdict } from './verdict.ts';

type BannerEnd = 'settled' | 'closed' | 'window' | 'deadline';

export const tcpProbe: Probe = async (def, ctx) => {
  const endpoint = socketTarget(def);
  if ('problem' in endpoint) return invalidDefinition(endpoint.problem);
  return withRun(def, ctx, async (run) => {
    const trace: ConnectionTrace = { startedAt: run.now() };
    let socket: Socket;
    try {
      socket = await dialTcp(run, endpoint.host, endpoint.port, trace);
    } catch (err) {
      return failure(run, err, endpoint.host, trace);
    }
    const latencyMs = run.latencyAt(trace.connectedAt ?? run.now());
    if (def.match_string === '') {
      socket.destroy();
      const verdict = responseTimeVerdict(latencyMs, def.max_response_time_ms);
      return outcomeOf(run, trace, { latencyMs, error: verdict.reason, rule: verdict.rule });
    }
    const { scan, end } = await readBanner(socket, def, run, trace);
    socket.destroy();
    const sample = capDetail(scan.sample, run.sampleChars);
    if (run.cancelled())
      return outcomeOf(run, trace, { latencyMs, error: cancelledError, responseSample: sample, sampleKind: 'banner' });
    const verdict = firstFailure(
      matchVerdict('banner', def.match_string, def.match_mode, scan.found),
      responseTimeVerdict(latencyMs, def.max_response_time_ms),
    );
    const error = verdict.reason + (verdict.pass ? '' : why(scan, end, run));
    return outcomeOf(run, trace, {
      latencyMs,
      error,
      rule: verdict.rule,
      responseSample: sample,
      sampleKind: 'banner',
    });
  });
};

/**
 * Why a banner may be missing or incomplete, appended to a failed match so "not there" is not
 * a mystery: nothing came, or the banner was cut (size limit, deadline) before it ended.
 */
function why(scan: ScanResult, end: BannerEnd, run: Run): string {
  if (scan.capped && !scan.found) return ` (banner cut at ${probeDefaults.maxBannerBytes} bytes)`;
  if (end === 'closed') return scan.bytes === 0 ? ' (the connection closed without a banner)' : '';
  if (end === 'window') {
    const window = `${probeDefaults.bannerWindowMs / 1000} s`;
    return scan.bytes === 0
      ? ` (nothing received within ${window} of connecting)`
      : ` (banner read for ${window} after connecting: ${scan.bytes} bytes)`;
  }
  if (end === 'deadline') {
    return scan.bytes === 0
      ? ` (nothing received within ${run.timeoutSec} s)`
      : ` (banner cut at the ${run.timeoutSec} s timeout after ${scan.bytes} bytes)`;
  }
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
    let unwatch = (): void => undefined;
    let window: ReturnType<typeof setTimeout> | undefined;
    let finished = false;
    const finish = (end: BannerEnd): void => {
      if (finished) return;
      finished = true;
      socket.off('data', onData).off('close', onClose);
      unwatch();
      clearTimeout(window);
      resolve({ scan: scanner.finish(), end });
    };
    const onData = (chunk: Buffer): void => {
      trace.firstByteAt ??= run.now();
      if (scanner.push(chunk)) finish('settled');
    };
    const onClose = (): void => finish('closed');
    if (run.stopped()) {
      finish('deadline');
      return;
    }
    socket.on('data', onData).once('close', onClose);
    // A tunnel through the proxy arrives paused (its CONNECT answer was read first).
    socket.resume();
    unwatch = run.onStop(() => finish('deadline'));
    // A deadline sooner than the window ends the read first and is named as the timeout.
    if (probeDefaults.bannerWindowMs < run.timeoutMs)
      window = setTimeout(() => finish('window'), probeDefaults.bannerWindowMs);
  });
}
