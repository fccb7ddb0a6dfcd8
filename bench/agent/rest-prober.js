// A bare prober at the resting row's pace: one GET every period on a fresh connection, the answer
// read and dropped, nothing else. Three ways, one process each (resting.ts starts all three):
// - through Node's HTTP client without an agent, `Connection: close`, as the agent's own probes:
//   what the resting agent's probes alone cost on this machine, as the floor prices a probe for the
//   rows under load (docs/performance.md: one isolated exchange costs milliseconds of CPU on a
//   virtual machine whose wake-ups are dear, optimized code or not);
// - through the agent's own probe, from the build (its probes' module and a check's definition
//   given as third and fourth arguments), with a stop signal as the scheduler gives one: the
//   agent's probe code alone, so that the row tells its probes from its commits, calls and
//   housekeeping;
// - on a bare socket (`raw`): connect, write the same GET, read until the target closes, nothing
//   parsed: what the machine charges for the exchanges themselves (the connect, the loopback
//   handshake, the wake-ups), which any prober pays and no agent code can take away.
// argv: the target's URL, the period in ms[, `raw` | the built probes module and a bench check's
// definition as JSON (bench-checks.ts)]. Started with the command's
// own V8 flags and environment (resting.ts); plain JavaScript for the reason stack-process.js
// gives. Asked over IPC, it answers how many requests it has sent (the target counts them with
// the agent's) and how many of the agent's probes failed; the parent stops it.
import { request } from 'node:http';
import { connect } from 'node:net';

const [url = '', periodText = '', probesModule, definition = '{}'] = process.argv.slice(2);
const periodMs = Number(periodText);
if (url === '' || !(periodMs > 0))
  throw new Error('usage: rest-prober.js <url> <period in ms> [raw | <probes module> <check definition as JSON>]');

/** One probe: Node's HTTP client, a bare socket, or the agent's runProbe; resolves true when it passed. */
async function prober() {
  if (probesModule === 'raw') {
    const { hostname, port, pathname, host } = new URL(url);
    const head = Buffer.from(`GET ${pathname} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 'latin1');
    return () => {
      const socket = connect(Number(port), hostname, () => socket.end(head));
      socket.on('data', () => {});
      // Loopback only: an error is the target being stopped at the end.
      socket.on('error', () => {});
      return Promise.resolve(true);
    };
  }
  if (probesModule === undefined)
    return () => {
      const probe = request(url, { agent: false, headers: { connection: 'close' } }, (answer) => answer.resume());
      // Loopback only: an error is the target being stopped at the end.
      probe.on('error', () => {});
      probe.end();
      return Promise.resolve(true);
    };
  const { runProbe } = await import(probesModule);
  const def = JSON.parse(definition);
  const { signal } = new AbortController();
  return async () => (await runProbe(def, { signal })).success;
}

const probe = await prober();
let sent = 0;
let failed = 0;
setInterval(() => {
  sent++;
  void probe().then((passed) => {
    if (!passed) failed++;
  });
}, periodMs);
process.on('message', () => process.send?.({ sent, failed }));
