// Main -> renderer events from the agent: snapshots throttled (a busy agent changes state many
// times a second; the window needs a few frames of it), transitions grouped into one batch when
// many checks change at once.
import type { Agent } from '../agent/agent.ts';
import type { CheckTransition } from '../agent/runs/transitions.ts';
import type { EventListener, EventName, EventPayloads } from './contract.ts';

export type EventSink = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

export interface EventHubOptions {
  /** At most one snapshot per this many ms; the last change is always delivered. */
  snapshotThrottleMs: number;
  /** Transitions within this window go out as one batch. */
  transitionWindowMs: number;
}

export const eventHubDefaults: EventHubOptions = { snapshotThrottleMs: 250, transitionWindowMs: 500 };

export interface EventHub {
  /** Every event (a transport: the window, the dashboard's event stream); see onEvent for one. */
  subscribe(sink: EventSink): () => void;
  /** Sends a fresh snapshot now (a window that just opened). */
  refresh(): void;
  close(): void;
}

/** Listens to one event of a hub, its payload typed from the contract; returns the undo. */
export function onEvent<E extends EventName>(
  hub: Pick<EventHub, 'subscribe'>,
  event: E,
  listener: EventListener<E>,
): () => void {
  const wanted: EventName = event;
  return hub.subscribe((name, payload) => {
    // Same name, same payload type: the contract's map ties them.
    if (name === wanted) (listener as EventListener<EventName>)(payload);
  });
}

export function createEventHub(agent: Agent, options: EventHubOptions = eventHubDefaults): EventHub {
  const sinks = new Set<EventSink>();
  let lastSent = 0;
  let pendingTimer: NodeJS.Timeout | undefined;
  let batch: CheckTransition[] = [];
  let batchTimer: NodeJS.Timeout | undefined;

  const emit: EventSink = (event, payload) => {
    for (const sink of sinks) sink(event, payload);
  };

  function sendSnapshot(): void {
    pendingTimer = undefined;
    lastSent = Date.now();
    if (sinks.size > 0) emit('agent:state-changed', agent.snapshot());
  }

  function scheduleSnapshot(): void {
    if (pendingTimer !== undefined) return;
    const wait = Math.max(0, lastSent + options.snapshotThrottleMs - Date.now());
    pendingTimer = setTimeout(sendSnapshot, wait);
  }

  const offChange = agent.onChange(scheduleSnapshot);
  const offTransition = agent.onTransition((transition) => {
    batch.push(transition);
    batchTimer ??= setTimeout(() => {
      const sent = batch;
      batch = [];
      batchTimer = undefined;
      emit('checks:transition', sent);
    }, options.transitionWindowMs);
  });

  return {
    subscribe(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },

    refresh: sendSnapshot,
    close() {
      offChange();
      offTransition();
      clearTimeout(pendingTimer);
      clearTimeout(batchTimer);
      sinks.clear();
    },
  };
}
