// Runs one scheduled check: probe it, build its result, hand it to the sink.
import type { ProbeContext, ProbeOutcome } from './probes/types.ts';
import type { RunnableCheck } from './runnable-checks.ts';
import type { ResultSink } from './results/result-sink.ts';
import { buildResult, historyEntry } from './results/result-builder.ts';
import type { RunTicket } from './schedule/scheduler.ts';
import type { CheckDefinition } from './wire/schemas.ts';

export interface CheckRunnerDeps {
  lookup: (guid: string) => RunnableCheck | undefined;
  probe: (def: CheckDefinition, ctx: ProbeContext) => Promise<ProbeOutcome>;
  sink: ResultSink;
  monitorId: () => string;
  /**
   * Whether a failed run happened while this machine was offline. Such a failure says nothing
   * about the target: it is kept locally as skipped and never uploaded (no false alarms).
   */
  offlineAfter: (outcome: ProbeOutcome) => Promise<boolean>;
  /** Extra probe context (trusted CAs in tests and the demo). */
  probeContext?: Omit<ProbeContext, 'signal' | 'sampleChars'>;
  onSkippedOffline?: (guid: string) => void;
  onOutcome?: (check: RunnableCheck, outcome: ProbeOutcome, skipped: boolean, ranAt: Date) => void;
}

export function createCheckRunner(deps: CheckRunnerDeps): (ticket: RunTicket) => Promise<void> {
  return async (ticket) => {
    const check = deps.lookup(ticket.guid);
    if (check === undefined) return;
    const ranAt = new Date(ticket.ranAt);
    const outcome = await deps.probe(check.definition, {
      ...deps.probeContext,
      signal: ticket.signal,
      sampleChars: check.maxChars,
    });
    // A run cut short by the agent stopping says nothing about the target.
    if (outcome.cancelled === true) return;
    const result = buildResult({
      guid: check.guid,
      monitorId: deps.monitorId(),
      ranAt,
      outcome,
      maxChars: check.maxChars,
      ...(check.privateSecrets === undefined ? {} : { privateSecrets: check.privateSecrets }),
      sampleIsTargetInfo: /^tls:/i.test(check.definition.url.trim()),
    });
    const skipped = !outcome.success && (await deps.offlineAfter(outcome));
    if (skipped) deps.onSkippedOffline?.(check.guid);
    deps.sink.add({ ...(skipped ? {} : { result }), history: historyEntry(result, outcome, skipped) });
    deps.onOutcome?.(check, outcome, skipped, ranAt);
  };
}
