// Keeps live-state.json (live-state-file.ts) in step with the running agent: written at once
// when what it says changes, and again when nothing was written for a heartbeat period so that
// its `written_at` shows the writer is alive. Removed when the agent stops. While probing runs,
// every load sample changes the file (its sampled_at), so the heartbeat never fires on its own:
// one write and one wake-up per sample instead of two (issue 26). Another call the server took
// moves only connection.last_success_at: that alone waits for the next write (issue 26: at rest
// it was 7 of the ~19 writes a minute, each a rename on the disk).
import type { Clock, TimerHandle } from '../base/clock.ts';
import type { AgentTunables } from '../defaults.ts';
import type { PrivateDefinitionsSummary } from '../checks/private-definitions/index.ts';
import { openLiveStateWriter, type LiveStateContent } from './live-state-file.ts';
import type { AgentState, LiveState } from './state.ts';

export interface LivePublisherDeps {
  dataDir: string;
  clock: Clock;
  live: LiveState;
  /** The heartbeat is a little longer than a load sample (heartbeatMs). */
  tunables: Pick<AgentTunables, 'loadSampleMs'>;
  identity: { current(): unknown };
  checkSet: { privateSummary(): PrivateDefinitionsSummary };
}

export interface LivePublisher {
  /** Writes now if what the file says changed, beyond the server's last call (the live state's listeners call it). */
  publish(): void;
  close(): void;
}

/** What the file says of this state (guids and problems of the private definitions, never a definition). */
export function contentOf(state: AgentState, enrolled: boolean, priv: PrivateDefinitionsSummary): LiveStateContent {
  const { connection } = state;
  return {
    load:
      state.load === undefined || state.loadSampledAt === undefined
        ? null
        : { ...state.load, sampled_at: state.loadSampledAt },
    clock_skew_sec: state.clockSkewSec ?? null,
    private_definitions: priv,
    store_problem: state.storeProblem ?? null,
    unsaved_results: state.storeProblem === undefined ? 0 : (state.unsavedResults ?? 0),
    local_fault: state.localFault ?? null,
    connection: enrolled
      ? { state: connection.state, since: connection.since ?? null, last_success_at: connection.lastSuccessAt ?? null }
      : null,
  };
}

/** The content, but for what may wait for the next write: when the server last took a call. */
const newsIn = (content: LiveStateContent): string =>
  JSON.stringify(
    content.connection === null
      ? content
      : { ...content, connection: { ...content.connection, last_success_at: null } },
  );

/**
 * Longest time between two writes: a fifth longer than a load sample, so that the sample's own
 * write (every loadSampleMs) always comes first and re-arms it, never both at once.
 */
export const heartbeatMs = (loadSampleMs: number): number => Math.round(loadSampleMs * 1.2);

export function startLivePublisher(deps: LivePublisherDeps): LivePublisher {
  let lastNews = '';
  let timer: TimerHandle | undefined;
  let closed = false;
  const periodMs = heartbeatMs(deps.tunables.loadSampleMs);
  const file = openLiveStateWriter(deps.dataDir);

  function write(content: LiveStateContent, news: string): void {
    file.write({
      pid: process.pid,
      written_at: new Date(deps.clock.now()).toISOString(),
      write_period_ms: periodMs,
      ...content,
    });
    lastNews = news;
    timer?.cancel();
    timer = deps.clock.setTimer(periodMs, heartbeat);
  }

  function current(): { content: LiveStateContent; news: string } {
    const enrolled = deps.identity.current() !== undefined;
    const content = contentOf(deps.live.get(), enrolled, deps.checkSet.privateSummary());
    return { content, news: newsIn(content) };
  }

  function publish(): void {
    if (closed) return;
    const { content, news } = current();
    if (news !== lastNews) write(content, news);
  }

  function heartbeat(): void {
    if (closed) return;
    const { content, news } = current();
    write(content, news);
  }

  const off = deps.live.onChange(publish);
  heartbeat();
  return {
    publish,
    close() {
      closed = true;
      off();
      timer?.cancel();
      file.remove();
    },
  };
}
