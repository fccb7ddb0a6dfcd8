// Exit codes of the headless command (design.md "Headless command"); scripts rely on them.
import type { EnrollFailureKind } from '../agent/identity/enrollment.ts';

export const exitCodes = {
  ok: 0,
  /** Something failed that has no code of its own (e.g. the data folder is unusable). */
  failure: 1,
  /** Bad command line, or `run` before enrollment; no request was sent. */
  usage: 2,
  tokenRejected: 3,
  noSuchMonitor: 4,
  stillEnrolled: 5,
  badRequest: 6,
  unreachable: 7,
  /**
   * Bad local state, nothing the command line can fix: the data folder is read-only or full, the
   * key file or the store cannot be read, or enroll could not save the key the server issued.
   */
  localState: 8,
} as const;

export const enrollExitCode: Record<EnrollFailureKind, number> = {
  usage: exitCodes.usage,
  'token-rejected': exitCodes.tokenRejected,
  'no-such-monitor': exitCodes.noSuchMonitor,
  'still-enrolled': exitCodes.stillEnrolled,
  'bad-request': exitCodes.badRequest,
  unreachable: exitCodes.unreachable,
  'local-state': exitCodes.localState,
  'not-saved': exitCodes.localState,
};
