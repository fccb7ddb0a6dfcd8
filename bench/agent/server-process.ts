// The reference uptime server for the agent bench, in its own process: a file database (results
// counted from it), one auto-assign organisation holding N checks at one interval (1 s unless
// told) against the target. argv: dbPath checkCount targetUrl [intervalSec]. Tells its parent
// {url, token}; answers "stored" with the number of results it holds, and "calls" with the number
// of requests it has been sent (every call of the agent's, each an exchange of its own).
import { DatabaseSync } from 'node:sqlite';
import { startReferenceServer } from '../../test/reference-server/index.ts';
import { seed } from '../../test/reference-server/seed.ts';
import { benchCheck } from './bench-checks.ts';
import { storedResults } from './stored-results.ts';

const [dbPath = '', countText = '0', targetUrl = '', intervalText = '1'] = process.argv.slice(2);
// The request log is for tests that inspect bodies; a bench only needs it small.
const server = await startReferenceServer({ dbPath, recorderLimits: { maxRequests: 100, maxBodyBytes: 1024 * 1024 } });
const checks = Array.from({ length: Number(countText) }, (_, i) => benchCheck(i, targetUrl, Number(intervalText)));
const seeded = seed(server, { organization: 'Bench', checks, tokenLabel: 'bench' });
const reader = new DatabaseSync(dbPath, { readOnly: true });
const stored = storedResults(reader);

process.on('message', (message) => {
  if (message === 'stored') process.send?.({ stored: stored() });
  // The request log is bounded; its sequence numbers count every request of the server's life.
  if (message === 'calls') process.send?.({ calls: server.requests().at(-1)?.seq ?? 0 });
});
process.on('disconnect', () => {
  reader.close();
  void server.close().finally(() => process.exit(0));
});
process.on('SIGTERM', () => process.exit(0));
process.send?.({ url: server.url, token: seeded.token });
