// The checks every agent in the bench runs, as the server holds them (server-process.ts), and the
// definition the resting row's second prober probes with (resting.ts): one source for both.

/** Check i of a bench: a GET of its own path on the target that passes when the body holds "ok". */
export const benchCheck = (i: number, targetUrl: string, intervalSec: number) => ({
  guid: `bench-${i}`,
  name: `bench ${i}`,
  url: `${targetUrl}c/${i}`,
  interval_sec: intervalSec,
  match_string: 'ok',
});
