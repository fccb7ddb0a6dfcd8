// The problems the window lists (and the tray sums up): each with the view that fixes it.
import type { PrivateDefinitionsSummary } from '../checks/private-definitions/index.ts';
import { describeOverload } from '../schedule/load.ts';
import { describeLocalFault } from '../base/local-fault.ts';
import { clockSkewLimitSec, type AgentState } from '../live/state.ts';
import type { AsideResults } from '../store/outbox.ts';
import type { FailureFacts } from '../wire/failure.ts';

export type ProblemKind =
  | 'key-rejected'
  | 'monitor-disabled'
  | 'key-damaged'
  | 'clock-skew'
  | 'server-connection'
  | 'private-missing'
  | 'private-invalid'
  | 'private-file'
  | 'rejected-results'
  | 'results-dropped'
  | 'store-problem'
  | 'results-aside'
  | 'overloaded'
  | 'settings-problem'
  | 'local-resources';

/** Something that needs the user, with what fixes it. */
export interface Problem {
  kind: ProblemKind;
  message: string;
  /** server-connection: the failure as data; the window chooses its words from it (src-renderer/words/). */
  failure?: FailureFacts;
  /** The view (and action) that fixes it. */
  action: 'enroll' | 'private-definitions' | 'unsent' | 'none';
  actionLabel: string;
}

/** The outbox's figures a problem is raised from. */
export interface OutboxProblems {
  dropped: number;
  rejectedCount: number;
  aside?: AsideResults[];
}

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
    problems.push({ kind: 'settings-problem', message: settingsProblem, action: 'none', actionLabel: '' });
  if (state.storeProblem !== undefined) {
    problems.push({
      kind: 'store-problem',
      message: `${state.storeProblem.charAt(0).toUpperCase()}${state.storeProblem.slice(1)}.`,
      action: 'none',
      actionLabel: '',
    });
  }
  if (state.localFault !== undefined) {
    problems.push({
      kind: 'local-resources',
      message: describeLocalFault(state.localFault.fault, state.localFault.runs),
      action: 'none',
      actionLabel: '',
    });
  }
  if (state.auth === 'key-rejected') {
    problems.push({
      kind: 'key-rejected',
      message: 'The server refused this monitor’s API key: it was reset. Results are kept here until you enroll again.',
      action: 'enroll',
      actionLabel: 'Enroll again',
    });
  }
  if (state.auth === 'monitor-disabled') {
    problems.push({
      kind: 'monitor-disabled',
      message:
        'The server has disabled this monitor, so checks are paused. Ask an administrator to enable it; the agent resumes by itself.',
      action: 'none',
      actionLabel: '',
    });
  }
  if (state.auth === 'key-damaged') {
    problems.push({
      kind: 'key-damaged',
      message:
        'The stored API key is damaged and cannot be sent. Enroll again, or reclaim this monitor with its id; results are kept here.',
      action: 'enroll',
      actionLabel: 'Enroll again',
    });
  }
  if (state.connectionProblem !== undefined) {
    problems.push({
      kind: 'server-connection',
      message: 'The server cannot be reached with the current network settings.',
      failure: state.connectionProblem,
      action: 'none',
      actionLabel: '',
    });
  }
  if (state.clockSkewSec !== undefined && Math.abs(state.clockSkewSec) > clockSkewLimitSec) {
    const off = Math.abs(state.clockSkewSec);
    const amount = off >= 120 ? `${Math.round(off / 60)} minutes` : `${off} seconds`;
    problems.push({
      kind: 'clock-skew',
      message: `This computer's clock is ${amount} ${state.clockSkewSec > 0 ? 'behind' : 'ahead of'} the server's. Results carry this computer's time: set the clock right (turn on automatic date and time).`,
      action: 'none',
      actionLabel: '',
    });
  }
  if (priv.fileError !== undefined) {
    problems.push({
      kind: 'private-file',
      message: priv.fileError,
      action: 'private-definitions',
      actionLabel: 'Open private definitions',
    });
  }
  if (priv.missing.length > 0) {
    const n = priv.missing.length;
    problems.push({
      kind: 'private-missing',
      message: `${n} private check${n === 1 ? ' has' : 's have'} no local definition and ${n === 1 ? 'is' : 'are'} not run.`,
      action: 'private-definitions',
      actionLabel: priv.file === undefined ? 'Choose a definitions file' : 'Open private definitions',
    });
  }
  const invalid = priv.invalid ?? [];
  if (invalid.length > 0) {
    const n = invalid.length;
    problems.push({
      kind: 'private-invalid',
      message: `${n === 1 ? `The private check ${invalid[0]?.name ?? ''} is` : `${n} private checks are`} not run: ${n === 1 ? 'its entry' : 'their entries'} in the definitions file ${n === 1 ? 'has an error' : 'have errors'}. Fix the fields named in Private definitions and save the file.`,
      action: 'private-definitions',
      actionLabel: 'Open private definitions',
    });
  }
  if (outbox.rejectedCount > 0) {
    problems.push({
      kind: 'rejected-results',
      message: `The server refused ${outbox.rejectedCount} result${outbox.rejectedCount === 1 ? '' : 's'}; they are set aside with its reasons.`,
      action: 'unsent',
      actionLabel: 'See refused results',
    });
  }
  for (const aside of outbox.aside ?? []) {
    problems.push({
      kind: 'results-aside',
      message: `${aside.count} unsent result${aside.count === 1 ? '' : 's'} of monitor ${aside.monitorId} (this agent's earlier enrollment) are kept aside. Reclaim monitor ${aside.monitorId} to send them.`,
      action: 'unsent',
      actionLabel: 'See unsent results',
    });
  }
  if (outbox.dropped > 0) {
    problems.push({
      kind: 'results-dropped',
      message: `${outbox.dropped} result${outbox.dropped === 1 ? ' was' : 's were'} dropped because the unsent-results buffer was full.`,
      action: 'unsent',
      actionLabel: 'See unsent results',
    });
  }
  if (state.load?.overloaded === true) {
    problems.push({ kind: 'overloaded', message: describeOverload(state.load), action: 'none', actionLabel: '' });
  }
  return problems;
}
