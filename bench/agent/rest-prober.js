// A bare Node prober at the resting row's pace: one GET every period on a fresh connection (Node's
// HTTP client without an agent, `Connection: close`, as the agent's own probes), the answer read
// and dropped, nothing else: what the resting agent's probes alone cost on this machine, as the
// floor prices a probe for the rows under load (README "Benchmarks": one isolated exchange costs
// milliseconds of CPU on a virtual machine whose wake-ups are dear, optimized code or not).
// argv: the target's URL, the period in ms. Started with the command's own V8 flags and environment
// (resting.ts); plain JavaScript for the reason stack-process.js gives. Asked over IPC, it answers
// how many requests it has sent (the target counts them with the agent's); the parent stops it.
import { request } from 'node:http';

const [url = '', periodText = ''] = process.argv.slice(2);
const periodMs = Number(periodText);
if (url === '' || !(periodMs > 0)) throw new Error('usage: rest-prober.js <url> <period in ms>');

let sent = 0;
setInterval(() => {
  sent++;
  const probe = request(url, { agent: false, headers: { connection: 'close' } }, (answer) => answer.resume());
  // Loopback only: an error is the target being stopped at the end.
  probe.on('error', () => {});
  probe.end();
}, periodMs);
process.on('message', () => process.send?.({ sent }));
