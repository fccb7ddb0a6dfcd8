// The last runs of a check as a row of cells: green passed, red failed, grey skipped (offline).
// One tab stop: focus (or hover) shows the newest run, arrow keys move along the runs, and the
// run under the pointer or the focus is described in words (time, status, latency, error).
import { useState, type KeyboardEvent } from 'react';
import { dateTime, milliseconds } from '../format.ts';

export interface Beat {
  state: 'up' | 'down' | 'skipped';
  /** Known when the run's details are loaded (the table starts from states only). */
  at?: string;
  httpStatus?: number;
  latencyMs?: number;
  error?: string;
}

const stateWords: Record<Beat['state'], string> = { up: 'passed', down: 'failed', skipped: 'skipped (offline)' };

export function describeBeat(beat: Beat): string {
  const parts = [beat.at === undefined ? undefined : dateTime(beat.at), stateWords[beat.state]];
  if (beat.httpStatus !== undefined && beat.httpStatus > 0) parts.push(`HTTP ${beat.httpStatus}`);
  if (beat.latencyMs !== undefined && beat.latencyMs > 0) parts.push(milliseconds(beat.latencyMs));
  if (beat.error !== undefined && beat.error !== '') parts.push(beat.error);
  return parts.filter((p) => p !== undefined).join(' · ');
}

export function summarizeBeats(beats: readonly Beat[]): string {
  const count = (state: Beat['state']) => beats.filter((b) => b.state === state).length;
  const skipped = count('skipped');
  return `Last ${beats.length} runs, oldest first: ${count('up')} passed, ${count('down')} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

export interface HeartbeatBarProps {
  /** Oldest first. */
  beats: readonly Beat[];
  /** Whose runs these are, for the label. */
  name: string;
  /** Called once when the details are first wanted (hover or focus), to load them. */
  onWantDetails?: () => void;
  compact?: boolean;
}

export function HeartbeatBar({ beats, name, onWantDetails, compact = false }: HeartbeatBarProps) {
  const [active, setActive] = useState<number | undefined>();
  if (beats.length === 0) return <span className="heartbeat-empty muted">no runs yet</span>;
  const shown = active === undefined ? undefined : beats[Math.min(active, beats.length - 1)];

  const move = (event: KeyboardEvent<HTMLDivElement>): void => {
    const last = beats.length - 1;
    const current = active ?? last;
    const next = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[event.key];
    if (next === undefined) {
      if (event.key === 'Escape') setActive(undefined);
      return;
    }
    event.preventDefault();
    setActive(Math.min(Math.max(next, 0), last));
  };
  const wake = (index: number): void => {
    onWantDetails?.();
    setActive(index);
  };

  return (
    <div
      className={compact ? 'heartbeat compact' : 'heartbeat'}
      role="group"
      tabIndex={0}
      aria-label={`${name}: ${summarizeBeats(beats)}. Use the arrow keys to read each run.`}
      onFocus={() => wake(active ?? beats.length - 1)}
      onBlur={() => setActive(undefined)}
      onMouseLeave={() => setActive(undefined)}
      onKeyDown={move}
      onClick={(event) => event.stopPropagation()}
    >
      <span className="heartbeat-cells" aria-hidden="true">
        {beats.map((beat, i) => (
          <span
            key={i}
            className={`beat beat-${beat.state}${i === active ? ' beat-active' : ''}`}
            onMouseEnter={() => wake(i)}
          />
        ))}
      </span>
      <span
        className={active !== undefined && active >= beats.length / 2 ? 'heartbeat-tip tip-end' : 'heartbeat-tip'}
        role="status"
        aria-live="polite"
        hidden={shown === undefined}
      >
        {shown === undefined ? '' : `Run ${(active ?? 0) + 1} of ${beats.length}: ${describeBeat(shown)}`}
      </span>
    </div>
  );
}

/** Runs from the agent's history (newest first) as beats, oldest first. */
export function beatsOfHistory(
  entries: readonly {
    ran_at: string;
    success: boolean;
    skipped: boolean;
    http_status: number;
    latency_ms: number;
    error: string;
  }[],
): Beat[] {
  return entries
    .map((e): Beat => ({
      state: e.skipped ? 'skipped' : e.success ? 'up' : 'down',
      at: e.ran_at,
      httpStatus: e.http_status,
      latencyMs: e.latency_ms,
      error: e.error,
    }))
    .reverse();
}

/** The compact form the snapshot carries ("uuds…", oldest first) as beats without details. */
export function beatsOfStates(states: string): Beat[] {
  return Array.from({ length: states.length }, (_, i): Beat => {
    const c = states.charAt(i);
    return { state: c === 'u' ? 'up' : c === 'd' ? 'down' : 'skipped' };
  });
}
