// Wire limits (wire-api.md "Limits"). Apart from the schemas, so the probe thread can read the
// timeout and header limits without loading zod (it added ~7 MB RSS to the command, measured alone).
export const wireLimits = {
  resultsPerBatch: 500,
  resultsBodyBytes: 1024 * 1024,
  headersPerCheck: 10,
  defaultTimeoutSec: 10,
  maxTimeoutSec: 60,
  /**
   * The largest sync answer (GET /api/checks) read. The README advertises 45,000 checks; with the
   * 10 headers the wire allows each, that set is 54.4 MiB (node bench/sync-answer.ts), so this
   * leaves over twice that for longer URLs and headers. Every other answer is far smaller.
   */
  syncAnswerBytes: 128 * 1024 * 1024,
} as const;
