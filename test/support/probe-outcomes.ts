// Probe outcomes as the probes return them, for the tests of what comes after a probe (the verdict
// explained, the result built, the offline policy, transitions, flapping, notifications, the
// window): one run that passed and one that failed on its status, each test overriding only the
// fields it is about. One shape for all of them, so a field the outcome gains is added here once.
import type { ProbeOutcome } from '../../src-main/agent/probes/types.ts';

/** A run that passed every rule: 200 in 5 ms, no sample kept. */
export const passedRun = (over: Partial<ProbeOutcome> = {}): ProbeOutcome => ({
  success: true,
  httpStatus: 200,
  latencyMs: 5,
  answered: true,
  decidedBy: 'all-rules',
  error: '',
  responseSample: '',
  ...over,
});

/** A run that failed on its status: 503 where 200 was expected. */
export const failedRun = (over: Partial<ProbeOutcome> = {}): ProbeOutcome =>
  passedRun({ success: false, httpStatus: 503, decidedBy: 'status', error: 'status 503, expected 200', ...over });

/** A run that got nothing back at all (no answer: what the offline policy weighs). */
export const unansweredRun = (over: Partial<ProbeOutcome> = {}): ProbeOutcome =>
  passedRun({
    success: false,
    httpStatus: 0,
    latencyMs: 0,
    answered: false,
    decidedBy: 'connection',
    error: 'connect timed out',
    ...over,
  });

/** One of the first two: for tests where only the verdict matters. */
export const runOutcome = (success: boolean): ProbeOutcome => (success ? passedRun() : failedRun());
