// @vitest-environment happy-dom
// Issue 25 point 9: the run explanation shows the response sample (withheld for a private check
// when it holds its definition), paused counts say paused, and the counts line agrees.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { countsLine } from '../../src-main/ipc/agent-summary.ts';
import type { RunExplanation } from '../../src-main/ipc/contract.ts';
import { RunExplanationView } from '../../src-renderer/checks/RunExplanation.tsx';

afterEach(cleanup);

const run = (overrides: Partial<RunExplanation>): RunExplanation => ({
  ranAt: '2026-11-21T10:00:00.000Z',
  success: true,
  httpStatus: 200,
  latencyMs: 12,
  error: '',
  decidedBy: 'all-rules',
  test: false,
  ...overrides,
});

describe('small items', () => {
  it('the run explanation shows the start of the response', () => {
    render(<RunExplanationView run={run({ sample: 'open for business', sampleKind: 'body' })} title="Last run" />);
    expect(screen.getByText('Start of the response')).toBeTruthy();
    expect(screen.getByText('open for business')).toBeTruthy();
  });

  it('a private check’s sample that holds its definition is not shown, and says so', () => {
    render(<RunExplanationView run={run({ sampleWithheld: true })} title="Last run" />);
    expect(screen.getByText(/Not shown for this private check/)).toBeTruthy();
  });

  it('paused counts say paused, not "7 up"', () => {
    const counts = { total: 7, runnable: 7, up: 7, down: 0, pending: 0, skipped: 0, notRun: 0 };
    expect(countsLine(counts, true)).toBe('7 checks: paused, none runs until you resume');
    expect(countsLine(counts)).toContain('7 up');
  });
});
