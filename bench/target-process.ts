// A loopback HTTP target for benches, run as its own process: answers "ok", after argv[2] ms;
// over TLS when argv[3] names a JSON file holding a PEM `cert` and `key`.
// Asked "served" over IPC, it answers how many requests it has served.
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

const delayMs = Number(process.argv[2] ?? '0');
let served = 0;
// "Exactly" delayMs after the request arrived: a timer alone fires up to a few ms late, so it
// wakes a little early and the last stretch is awaited on the high-resolution clock.
function answerAt(deadline: number, end: () => void): void {
  const left = deadline - performance.now();
  if (left <= 0) end();
  else if (left > 4) setTimeout(() => answerAt(deadline, end), left - 4);
  else setImmediate(() => answerAt(deadline, end));
}

const answer: RequestListener = (_req, res) => {
  served++;
  if (delayMs > 0) answerAt(performance.now() + delayMs, () => res.end('ok'));
  else res.end('ok');
};
const tlsFile = process.argv[3];
const server =
  tlsFile === undefined
    ? createServer(answer)
    : createTlsServer(JSON.parse(readFileSync(tlsFile, 'utf8')) as { cert: string; key: string }, answer);
server.keepAliveTimeout = 1000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (message) => {
  if (message === 'served') process.send?.({ served });
});
process.on('disconnect', () => process.exit(0));
