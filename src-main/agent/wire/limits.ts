// Wire limits (wire-api.md "Limits"). Apart from the schemas, so the probe thread can read the
// timeout and header limits without loading zod (it added ~7 MB RSS to the command, measured alone).
export const wireLimits = {
  resultsPerBatch: 500,
  resultsBodyBytes: 1024 * 1024,
  headersPerCheck: 10,
  defaultTimeoutSec: 10,
  maxTimeoutSec: 60,
} as const;
