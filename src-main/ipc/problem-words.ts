// The one place the agent's problems become words, for the window (src-renderer/views/
// overview-model.ts) and the tray's notifications (src-main/electron/notification-planner.ts):
// from each problem's kind and facts, carried as data from src-main/agent/read/problems.ts.
// A Record over every kind, so a new kind does not compile until it has words here.
// The local-fault and overload sentences are the ones the log and `status` use too, so they come
// from where those faults are defined.
import { describeLocalFault } from '../agent/base/local-fault.ts';
import { describeOverload } from '../agent/schedule/load.ts';
import type { Problem, ProblemKind } from './contract.ts';

type Of<K extends ProblemKind> = Extract<Problem, { kind: K }>;

const plural = (n: number, one: string, many: string): string => (n === 1 ? one : many);

/** Capitalised and ended, for a sentence made elsewhere in the reader's words. */
const asSentence = (text: string): string => {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(capital) ? capital : `${capital}.`;
};

const words: { [K in ProblemKind]: (p: Of<K>) => string } = {
  'key-rejected': () =>
    'The server refused this monitor’s API key: it was reset. Results are kept here until you enroll again.',
  'monitor-disabled': () =>
    'The server has disabled this monitor, so checks are paused. Ask an administrator to enable it; the agent resumes by itself.',
  'key-damaged': () =>
    'The stored API key is damaged and cannot be sent. Enroll again, or reclaim this monitor with its id; results are kept here.',
  // The window says more from the failure itself (src-renderer/words/failure-words.ts).
  'server-connection': () => 'The server cannot be reached with the current network settings.',
  'clock-skew': ({ skewSec }) => {
    const off = Math.abs(skewSec);
    const amount = off >= 120 ? `${Math.round(off / 60)} minutes` : `${off} seconds`;
    return `This computer's clock is ${amount} ${skewSec > 0 ? 'behind' : 'ahead of'} the server's. Results carry this computer's time: set the clock right (turn on automatic date and time).`;
  },
  'private-file': ({ detail }) => asSentence(detail),
  'private-missing': ({ checks }) => {
    const n = checks.length;
    return `${n} private check${plural(n, ' has', 's have')} no local definition and ${plural(n, 'is', 'are')} not run.`;
  },
  'private-invalid': ({ checks }) => {
    const n = checks.length;
    const which = n === 1 ? `The private check ${checks[0]?.name ?? ''} is` : `${n} private checks are`;
    return `${which} not run: ${plural(n, 'its entry', 'their entries')} in the definitions file ${plural(n, 'has an error', 'have errors')}. Fix the fields named in Private definitions and save the file.`;
  },
  'rejected-results': ({ count }) =>
    `The server refused ${count} result${plural(count, '', 's')}; they are set aside with its reasons.`,
  'results-aside': ({ count, monitorId }) =>
    `${count} unsent result${plural(count, '', 's')} of monitor ${monitorId} (this agent's earlier enrollment) are kept aside. Reclaim monitor ${monitorId} to send them.`,
  'results-dropped': ({ count }) =>
    `${count} result${plural(count, ' was', 's were')} dropped because the unsent-results buffer was full.`,
  'store-problem': ({ fault, folder, waiting, dropped }) => {
    const held = `${waiting} result${plural(waiting, ' is', 's are')} waiting in memory${dropped > 0 ? ` (${dropped} older ones dropped)` : ''}`;
    return fault === 'disk-full'
      ? `The disk holding ${folder} is full: ${held}; free space.`
      : `Results cannot be saved in ${folder}: ${held}; check the disk and the folder's permissions.`;
  },
  'settings-problem': ({ detail }) => asSentence(detail),
  'local-resources': ({ fault, runs }) => describeLocalFault(fault, runs),
  overloaded: ({ skipped }) => describeOverload({ recentBacklog: skipped }),
};

/** What the problem is and what to do, in the reader's words. */
export function problemText(problem: Problem): string {
  return (words[problem.kind] as (p: Problem) => string)(problem);
}

/** The label of the button that opens the view that fixes it ('' when there is none). */
export function problemActionLabel(problem: Problem): string {
  switch (problem.kind) {
    case 'key-rejected':
    case 'key-damaged':
      return 'Enroll again';
    case 'private-missing':
      return problem.hasFile ? 'Open private definitions' : 'Choose a definitions file';
    case 'private-file':
    case 'private-invalid':
      return 'Open private definitions';
    case 'rejected-results':
      return 'See refused results';
    case 'results-aside':
    case 'results-dropped':
      return 'See unsent results';
    default:
      return '';
  }
}
