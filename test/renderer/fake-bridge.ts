// An in-memory AgentBridge for component tests: answers per channel (values, errors, or
// promises the test resolves later for the loading state), records every call, and emits events.
import type {
  AgentBridge,
  EventName,
  EventPayloads,
  InvokeArgs,
  InvokeChannel,
  InvokeResults,
  IpcError,
  IpcErrorKind,
  IpcResult,
} from '../../src-main/ipc/contract.ts';
import { appInfoOf, settingsOf, snapshotOf, windowOf } from './fixtures.ts';

type Answer<C extends InvokeChannel> = (
  args: InvokeArgs<C>,
) => IpcResult<InvokeResults[C]> | Promise<IpcResult<InvokeResults[C]>>;
export type Answers = { [C in InvokeChannel]?: Answer<C> };

export interface FakeBridge extends AgentBridge {
  calls: { channel: InvokeChannel; args: unknown }[];
  callsTo(channel: InvokeChannel): unknown[];
  answer<C extends InvokeChannel>(channel: C, reply: Answer<C>): void;
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void;
}

export const ok = <T>(value: T): IpcResult<T> => ({ ok: true, value });
/** A failed call, as the app sends it: the kind (and facts) only, never text. */
export const fail = (error: IpcErrorKind | IpcError): IpcResult<never> => ({
  ok: false,
  error: typeof error === 'string' ? { kind: error } : error,
});

/** A promise with its resolve exposed, to hold a view in its loading state. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export function createFakeBridge(answers: Answers = {}): FakeBridge {
  const table: Answers = {
    'agent:snapshot': () => ok(snapshotOf()),
    'app:info': () => ok(appInfoOf()),
    'settings:get': () => ok(settingsOf()),
    'outages:list': () => ok([]),
    'server-absences:list': () => ok([]),
    'checks:history': () => ok([]),
    'checks:window': (args) => ok(windowOf({ range: args.range })),
    'events:list': () => ok([]),
    ...answers,
  };
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const calls: FakeBridge['calls'] = [];
  return {
    calls,
    callsTo: (channel) => calls.filter((c) => c.channel === channel).map((c) => c.args),
    answer(channel, reply) {
      (table as Record<string, unknown>)[channel] = reply;
    },
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    async invoke<C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<IpcResult<InvokeResults[C]>> {
      calls.push({ channel, args });
      const reply = table[channel];
      if (reply === undefined) return fail('failed');
      return reply(args);
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    },
  };
}
