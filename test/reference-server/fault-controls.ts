// The test-facing fault API: one shorthand per kind of misbehaviour over FaultRegistry.inject.
import type { FaultHandle, FaultOptions, FaultRegistry, FaultSpec } from './faults.ts';

export interface FaultControls {
  /** The general form; the shorthands below cover every action. */
  inject(spec: FaultSpec): FaultHandle;
  /** Answer `status` (body: a one-line text unless given) instead of the real operation. */
  respond(status: number, options?: FaultOptions & { body?: string; contentType?: string }): FaultHandle;
  /** 200, JSON content type, a body that does not parse. */
  invalidJson(options?: FaultOptions): FaultHandle;
  /** 200 with JSON of the wrong shape for every wire response. */
  schemaViolation(options?: FaultOptions): FaultHandle;
  /** 200 with valid JSON of `bytes` bytes (default 16 MiB), to prove the agent bounds reads. */
  hugeBody(options?: FaultOptions & { bytes?: number }): FaultHandle;
  /** Answer normally, `ms` milliseconds late. */
  delay(ms: number, options?: FaultOptions): FaultHandle;
  /** Never answer. */
  hang(options?: FaultOptions): FaultHandle;
  /** Drop the connection without an answer. */
  reset(options?: FaultOptions): FaultHandle;
  /** Cancel every fault. */
  clear(): void;
  /** The faults still in force. */
  active(): FaultSpec[];
}

export function createFaultControls(registry: FaultRegistry): FaultControls {
  const inject = (spec: FaultSpec) => registry.inject(spec);
  return {
    inject,
    respond: (status, options = {}) => {
      const { body, contentType, ...rest } = options;
      return inject({ ...rest, action: { kind: 'status', status, body, contentType } });
    },
    invalidJson: (options = {}) => inject({ ...options, action: { kind: 'invalid-json' } }),
    schemaViolation: (options = {}) => inject({ ...options, action: { kind: 'schema-violation' } }),
    hugeBody: (options = {}) => {
      const { bytes, ...rest } = options;
      return inject({ ...rest, action: { kind: 'huge-body', bytes } });
    },
    delay: (ms, options = {}) => inject({ ...options, action: { kind: 'delay', ms } }),
    hang: (options = {}) => inject({ ...options, action: { kind: 'hang' } }),
    reset: (options = {}) => inject({ ...options, action: { kind: 'reset' } }),
    clear: () => registry.clear(),
    active: () => registry.active(),
  };
}
