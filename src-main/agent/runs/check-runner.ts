// Runs one scheduled check: probe it, build its result, hand it to the sink.
import type { ProbeContext, ProbeOutcome } from '../probes/types.ts';
import type { RunnableCheck } from '../checks/runnable-checks.ts';
import type { ResultSink } from '../results/result-sink.ts';
import { buildResult, historyEntry } from '../results/result-builder.ts';
import type { RunTicket } from '../schedule/scheduler.ts';
import type { CheckDefinition } from '../wire/schemas.ts';

/** Probe context the runner does not set itself (trusted CAs in tests and the demo). */
export type ExtraProbeContext = Omit<ProbeContext, 'signal' | 'sampleChars'>;

export interface CheckRunnerDeps {
  lookup: (guid: string) => RunnableCheck | undefined;
  probe: (def: CheckDefinition, ctx: ProbeContext) => Promise<ProbeOutcome>;
  /** Only adding: committing, retrying and closing belong to the sink's owner. */
  sink: Pick<ResultSink, 'add'>;
  monitorId: () => string;
  /**
   * Whether a finished run is kept locally as skipped: a failure with no answer while this
   * machine is offline says nothing about the target, so it is never uploaded.
   */
  skipsRun: (outcome: ProbeOutcome) => Promise<boolean>;
  /** Read per run, so that changed settings (proxy, CA, egress policy) apply to the next run. */
  probeContext?: () => ExtraProbeContext;
  /** A run's outcome, once the run is committed to the store, if its check is still run then. */
  onOutcome?: (check: RunnableCheck, outcome: ProbeOutcome, skipped: boolean, ranAt: Date) => void;
}

export function createCheckRunner(deps: CheckRunnerDeps): (ticket: RunTicket) => Promise<void> {
  return async (ticket) => {
    const check = deps.lookup(ticket.guid);
    if (check === undefined) return;
    const ranAt = new Date(ticket.ranAt);
    const outcome = await deps.probe(check.definition, {
      ...deps.probeContext?.(),
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
    });
    const skipped = await deps.skipsRun(outcome);
    const observe = deps.onOutcome;
    // Told only while the check is still run: one that stopped meanwhile (deleted, unassigned,
    // disabled) had its last run and transition state freed, and a late run would start them
    // again, with a "down" for a check nobody runs.
    const committed = (): void => {
      if (observe !== undefined && deps.lookup(check.guid) !== undefined) observe(check, outcome, skipped, ranAt);
    };
    deps.sink.add({ ...(skipped ? {} : { result }), history: historyEntry(result, outcome, skipped), committed });
  };
}
