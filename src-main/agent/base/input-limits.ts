// Limits on what a person gives the agent, written once for every surface that checks them: the
// command's flags (cli/), the IPC contract (ipc/contract.ts) and the window's forms (which read
// them through the contract). Pure data: the renderer bundles this file.

export const inputLimits = {
  /**
   * The agent's own loops (sync, upload, status, ping), in seconds. Fractions let tests and
   * demos run in seconds; a day is the longest wait anyone means (the window sets higher floors).
   */
  intervalSec: { min: 0.05, max: 86_400 },
  /** Monitor name, region, country and city: enough for any place name, bounded for the server. */
  enrollFieldChars: 200,
  /**
   * The longest enrollment token sent: it travels in a header, which servers refuse past 8 to
   * 16 KiB (431); real tokens are under a hundred characters. Longer is a paste gone wrong.
   */
  enrollTokenChars: 4096,
  /** Extra connectivity targets: a handful is plenty, each costs a connect while offline. */
  connectivityTargets: 20,
  /** The unsent-results bound a person may choose (count, and size in MiB). */
  outboxResults: { min: 1_000, max: 10_000_000 },
  outboxMegabytes: { min: 10, max: 10_240 },
} as const;
