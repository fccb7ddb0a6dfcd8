// What a command the user gave came to when the agent answered that it did not do it: the words
// are chosen here from the outcome's kind, never from the agent's text. A failed sync or upload
// is a failed call to the server (its words are the shared ones); a refused test run has its own.
import type { RunResult, TestRunRefusal, TestRunResult } from '../../src-main/ipc/contract.ts';
import { apiFailureWords } from './failure-words.ts';

/** A Record, so that a new refusal does not compile until it has words. */
const testRunRefusals: Record<TestRunRefusal, string> = {
  'not-runnable':
    'This agent does not run this check now (it is disabled, no longer assigned to this monitor, or a private check without a usable local definition), so it cannot be run. Its state above says what to change.',
};

/** A sync, upload or send-again that failed, in words; undefined when it worked. */
export const runFailure = (result: RunResult): string | undefined =>
  result.ok ? undefined : apiFailureWords(result.failure);

/** A test run that did not happen, in words; undefined when it ran (whatever its verdict). */
export const testRunFailure = (result: TestRunResult): string | undefined =>
  result.ok ? undefined : testRunRefusals[result.refused];
