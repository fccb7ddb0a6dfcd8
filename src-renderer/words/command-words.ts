// What a command the user gave came to when the agent answered that it did not do it: the words
// are chosen here from the outcome's kind, never from the agent's text. A failed sync or upload
// is a failed call to the server (its words, and what follows, are the shared ones); a refused
// test run has its own.
import type { RunDone, RunResult, TestRunRefusal, TestRunResult } from '../../src-main/ipc/contract.ts';
import { count } from '../format.ts';
import { callFailureWords, type ServerCall } from './failure-words.ts';

const sentWords = (delivered: number, rejected: number): string =>
  delivered === 0 && rejected === 0
    ? 'nothing was waiting to be sent'
    : `${count(delivered, 'result')} sent${rejected > 0 ? `, ${count(rejected, 'refused', 'refused')} by the server (set aside below)` : ''}`;

/** What a sync, upload or send-again did, as one sentence. */
export function runDoneWords(done: RunDone): string {
  switch (done.kind) {
    case 'sync':
      return done.received === 0
        ? 'Checks are up to date.'
        : `${count(done.received, 'check change')} applied${done.stopped > 0 ? `, ${count(done.stopped, 'check')} stopped` : ''}.`;
    case 'upload': {
      const sent = sentWords(done.delivered, done.rejected);
      return `${sent.charAt(0).toUpperCase()}${sent.slice(1)}.`;
    }
    case 'resend':
      return done.moved === 0
        ? 'No refused results were waiting.'
        : `${count(done.moved, 'refused result')} sent again: ${sentWords(done.delivered, done.rejected)}.`;
  }
}

/** A Record, so that a new refusal does not compile until it has words. */
const testRunRefusals: Record<TestRunRefusal, string> = {
  'not-runnable':
    'This agent does not run this check now (it is disabled, no longer assigned to this monitor, or a private check without a usable local definition), so it cannot be run. Its state above says what to change.',
};

/** A sync, upload or send-again that failed, in words with what follows; undefined when it worked. */
export const runFailure: Record<ServerCall, (result: RunResult) => string | undefined> = {
  sync: (result) => (result.ok ? undefined : callFailureWords(result.failure, 'sync')),
  upload: (result) => (result.ok ? undefined : callFailureWords(result.failure, 'upload')),
};

/** A test run that did not happen, in words; undefined when it ran (whatever its verdict). */
export const testRunFailure = (result: TestRunResult): string | undefined =>
  result.ok ? undefined : testRunRefusals[result.refused];
