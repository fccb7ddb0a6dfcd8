// Tunables of the desktop shell, each with its reason. The agent's own live in agent/defaults.ts.
export const shellDefaults = {
  /**
   * A check that notified within this window is quiet until it ends; then its latest state is
   * told once if it differs. A flapping check makes one notification a minute, not dozens.
   */
  flapWindowMs: 60_000,
  /** Names listed in a grouped notification before "and N more". */
  namesInGroup: 3,
  /** Quitting waits this long for the agent's graceful stop (final upload) before exiting. */
  quitTimeoutMs: 10_000,
  /** Log rotation: this many files of this size (about 25 MiB of history at most). */
  logFileBytes: 5 * 1024 * 1024,
  logFiles: 5,
  /** The window's first size, and the least of it that must be on a display to restore it. */
  windowSize: { width: 1100, height: 760 },
  minVisiblePx: 80,
};
