// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { beatsOfHistory, beatsOfStates, HeartbeatBar } from '../../src-renderer/checks/HeartbeatBar.tsx';

afterEach(cleanup);

const entry = (second: number, success: boolean, skipped = false) => ({
  check_guid: 'g',
  ran_at: `2026-11-21T10:00:${String(second).padStart(2, '0')}.000Z`,
  success,
  skipped,
  http_status: success ? 200 : 503,
  latency_ms: 10 + second,
  error: success ? '' : 'status 503, expected 200',
});

describe('HeartbeatBar', () => {
  it('draws one cell per run, oldest first, and says the tally in its label', () => {
    // The history comes newest first.
    const beats = beatsOfHistory([entry(3, true), entry(2, false), entry(1, false, true), entry(0, true)]);
    expect(beats.map((b) => b.state)).toEqual(['up', 'skipped', 'down', 'up']);
    const { container } = render(<HeartbeatBar beats={beats} name="Shop" />);
    expect(container.querySelectorAll('.beat')).toHaveLength(4);
    expect(container.querySelectorAll('.beat-down')).toHaveLength(1);
    expect(screen.getByRole('group').getAttribute('aria-label')).toBe(
      'Shop: Last 4 runs, oldest first: 2 passed, 1 failed, 1 skipped. Use the arrow keys to read each run.',
    );
  });

  it('keyboard focus shows the newest run; arrows, Home and End move along the runs', () => {
    const beats = beatsOfHistory([entry(3, true), entry(2, false), entry(1, true)]);
    render(<HeartbeatBar beats={beats} name="Shop" />);
    const bar = screen.getByRole('group');
    const tip = screen.getByRole('status', { hidden: true });
    expect(tip.hidden).toBe(true);
    fireEvent.focus(bar);
    expect(tip.hidden).toBe(false);
    expect(tip.textContent).toMatch(/^Run 3 of 3: .* · passed · HTTP 200 · 13 ms$/);
    fireEvent.keyDown(bar, { key: 'ArrowLeft' });
    expect(tip.textContent).toMatch(/^Run 2 of 3: .* · failed · HTTP 503 · 12 ms · status 503, expected 200$/);
    fireEvent.keyDown(bar, { key: 'Home' });
    expect(tip.textContent).toMatch(/^Run 1 of 3/);
    fireEvent.keyDown(bar, { key: 'ArrowLeft' });
    expect(tip.textContent).toMatch(/^Run 1 of 3/);
    fireEvent.keyDown(bar, { key: 'End' });
    expect(tip.textContent).toMatch(/^Run 3 of 3/);
    fireEvent.blur(bar);
    expect(tip.hidden).toBe(true);
  });

  it('hover shows the run under the pointer and asks once for the details', () => {
    let asked = 0;
    const { container } = render(
      <HeartbeatBar beats={beatsOfStates('uud')} name="Shop" compact onWantDetails={() => asked++} />,
    );
    const cells = container.querySelectorAll('.beat');
    fireEvent.mouseEnter(cells[2] as Element);
    expect(asked).toBe(1);
    expect(screen.getByRole('status', { hidden: true }).textContent).toBe('Run 3 of 3: failed');
  });

  it('says when there are no runs yet', () => {
    render(<HeartbeatBar beats={[]} name="Shop" />);
    expect(screen.getByText('no runs yet')).toBeTruthy();
  });
});
