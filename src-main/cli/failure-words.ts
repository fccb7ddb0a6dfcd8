// The one place the command line chooses words for a failure it reports, from its kind (and
// cause, field, monitor id): the agent's log line says what happened in an operator's terms, and
// this adds what to do here, with this command's flags (the window has its own words:
// src-renderer/words/failure-words.ts). A Record per kind, so a new kind has words or no build.
import type { EnrollFailure, EnrollFailureKind } from '../agent/identity/enrollment.ts';

type Line = (failure: EnrollFailure, server: string) => string;

const asIs: Line = (failure) => failure.message;

const enrollLines: Record<EnrollFailureKind, Line> = {
  usage: asIs,
  'token-rejected': asIs,
  'no-such-monitor': asIs,
  'still-enrolled': asIs,
  'bad-request': asIs,
  unreachable: asIs,
  'local-state': asIs,
  // The id the server issued is the way back: say the command that takes it.
  'not-saved': (failure, server) =>
    `${failure.message}: uptime-agent enroll --reclaim ${failure.monitorId ?? 'ID'} --server ${server} ...`,
};

/** The one line `uptime-agent enroll` prints on stderr when it fails. */
export const enrollFailureLine = (failure: EnrollFailure, server: string): string =>
  `enroll failed: ${enrollLines[failure.kind](failure, server)}`;
