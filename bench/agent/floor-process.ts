// The floor for a Node prober: raw undici, a fresh connection per request, WORKERS requests in
// flight, nothing else (no verdict, no store, no upload). argv: url warmupSeconds windowSeconds
// workers. Tells its parent "measuring" when the warm-up ends, "done" when the window ends (then
// {failures}), so the parent reads this process's CPU and the target's counter at exactly those moments.
import { Client } from 'undici';

const [url = '', warmupText = '2', windowText = '30', workersText = '32'] = process.argv.slice(2);
const target = new URL(url);
const measureAt = performance.now() + Number(warmupText) * 1000;
const endAt = measureAt + Number(windowText) * 1000;
let failures = 0;

async function worker(): Promise<void> {
  while (performance.now() < endAt) {
    const client = new Client(target.origin, { pipelining: 0 });
    try {
      const { body } = await client.request({ path: target.pathname, method: 'GET' });
      await body.dump();
    } catch {
      failures++;
    } finally {
      await client.close();
    }
  }
}

setTimeout(() => process.send?.('measuring'), measureAt - performance.now());
// On a loaded machine the workers can finish before this timer fires: 'done' is then sent below,
// before disconnecting, never on a closed channel (ERR_IPC_CHANNEL_CLOSED).
let doneSent = false;
const sendDone = (): void => {
  if (!doneSent) process.send?.('done');
  doneSent = true;
};
const done = setTimeout(sendDone, endAt - performance.now());
await Promise.all(Array.from({ length: Number(workersText) }, worker));
clearTimeout(done);
sendDone();
process.send?.({ failures });
process.disconnect();
