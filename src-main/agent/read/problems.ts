// The problems the window lists (and the tray sums up): each a kind with the facts its words need
// and the view that fixes it. The words are chosen in one place, src-main/ipc/problem-words.ts,
// from these facts; nothing here builds a sentence for the window.
import type { PrivateDefinitionsSummary } from '../checks/private-definitions/index.ts';
import type { LocalFault } from '../base/local-fault.ts';
import { clockSkewLimitSec, type AgentState, type StoreFault } from '../live/state.ts';
import type { AsideResults } from '../store/outbox.ts';
import type { FailureFacts } from '../wire/failure.ts';

/** A named check a problem is about. */
export interface ProblemCheck {
  guid: string;
  name: string;
}

/** Each kind with the facts its words are made from. */
export type ProblemFacts =
  | { kind: 'key-rejected' }
  | { kind: 'monitor-disabled' }
  | { kind: 'key-damaged' }
  /** Seconds this computer's clock is behind the server's (negative: ahead). */
  | { kind: 'clock-skew'; skewSec: number }
  | { kind: 'server-connection'; failure: FailureFacts }
  | { kind: 'private-missing'; checks: readonly ProblemCheck[]; hasFile: boolean }
  | { kind: 'private-invalid'; checks: readonly ProblemCheck[] }
  /** The file's reader says what is wrong, already in the reader's words (line, field). */
  | { kind: 'private-file'; detail: string }
  | { kind: 'rejected-results'; count: number }
  | { kind: 'results-dropped'; count: number }
  /** Results cannot be saved: why, where, and how many wait in memory (dropped: the oldest lost). */
  | { kind: 'store-problem'; fault: StoreFault['kind']; folder: string; waiting: number; dropped: number }
  | { kind: 'results-aside'; monitorId: string; count: number }
  /** Runs skipped in the last minute for want of a free slot. */
  | { kind: 'overloaded'; skipped: number }
  /** The settings reader's sentence (which settings, what falls back). */
  | { kind: 'settings-problem'; detail: string }
  | { kind: 'local-resources'; fault: LocalFault; runs: number };

export type ProblemKind = ProblemFacts['kind'];

/** The view (and action) that fixes a problem. */
export type ProblemAction = 'enroll' | 'private-definitions' | 'unsent' | 'none';

/** Something that needs the user: its kind and facts, and the view that fixes it. */
export type Problem = ProblemFacts & { action: ProblemAction };

/** The outbox's figures a problem is raised from. */
export interface OutboxProblems {
  dropped: number;
  rejectedCount: number;
  aside?: AsideResults[];
}

const checksOf = (list: readonly { guid: string; name: string }[]): ProblemCheck[] =>
  list.map(({ guid, name }) => ({ guid, name }));

/** What the user must know or do, from live state, the outbox's figures and the private definitions. */
export function problemsOf(
  state: AgentState,
  outbox: OutboxProblems,
  priv: PrivateDefinitionsSummary,
  settingsProblem?: string,
): Problem[] {
  const problems: Problem[] = [];
  // A damaged settings file fell back, closed: the user must know why checks are refused.
  if (settingsProblem !== undefined)
    problems.push({ kind: 'settings-problem', detail: settingsProblem, action: 'none' });
  if (state.storeFault !== undefined) {
    const { kind: fault, folder, dropped } = state.storeFault;
    const waiting = state.unsavedResults ?? 0;
    problems.push({ kind: 'store-problem', fault, folder, waiting, dropped, action: 'none' });
  }
  if (state.localFault !== undefined) {
    const { fault, runs } = state.localFault;
    problems.push({ kind: 'local-resources', fault, runs, action: 'none' });
  }
  if (state.auth === 'key-rejected') problems.push({ kind: 'key-rejected', action: 'enroll' });
  if (state.auth === 'monitor-disabled') problems.push({ kind: 'monitor-disabled', action: 'none' });
  if (state.auth === 'key-damaged') problems.push({ kind: 'key-damaged', action: 'enroll' });
  if (state.connectionProblem !== undefined)
    problems.push({ kind: 'server-connection', failure: state.connectionProblem, action: 'none' });
  if (state.clockSkewSec !== undefined && Math.abs(state.clockSkewSec) > clockSkewLimitSec)
    problems.push({ kind: 'clock-skew', skewSec: state.clockSkewSec, action: 'none' });
  if (priv.fileError !== undefined)
    problems.push({ kind: 'private-file', detail: priv.fileError, action: 'private-definitions' });
  if (priv.missing.length > 0) {
    const hasFile = priv.file !== undefined;
    problems.push({ kind: 'private-missing', checks: checksOf(priv.missing), hasFile, action: 'private-definitions' });
  }
  const invalid = priv.invalid ?? [];
  if (invalid.length > 0)
    problems.push({ kind: 'private-invalid', checks: checksOf(invalid), action: 'private-definitions' });
  if (outbox.rejectedCount > 0)
    problems.push({ kind: 'rejected-results', count: outbox.rejectedCount, action: 'unsent' });
  for (const aside of outbox.aside ?? [])
    problems.push({ kind: 'results-aside', monitorId: aside.monitorId, count: aside.count, action: 'unsent' });
  if (outbox.dropped > 0) problems.push({ kind: 'results-dropped', count: outbox.dropped, action: 'unsent' });
  if (state.load?.overloaded === true)
    problems.push({ kind: 'overloaded', skipped: state.load.recentBacklog, action: 'none' });
  return problems;
}
