// Fields of a check the window reads when the agent sends them (older hosts do not): the compact
// run states for the heartbeat ("uud…", oldest first) and when the current down episode began.
import type { CheckView } from '../../src-main/ipc/contract.ts';

type WithExtras = CheckView & { beats?: string; downSince?: string };

export const beatStatesOf = (check: CheckView): string | undefined => (check as WithExtras).beats;

/** When the check went down: the open episode's start, else (older hosts) its last run. */
export const downSinceOf = (check: CheckView): string | undefined => (check as WithExtras).downSince ?? check.lastResult?.ran_at;
