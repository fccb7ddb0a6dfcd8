// One GET on a fresh connection, as a probe sends it: used by the stack alone (stack-process.js)
// in its main thread and, started as a worker, as its second thread (the probe thread's part):
// then it sends `workerData.uses` such requests, says "used", and stays idle. Plain JavaScript
// for the reason stack-process.js gives. Node's modules are loaded as the agent loads them
// (eslint.config.js: an import of node:http would also load Node's bundled undici).
const { request } = process.getBuiltinModule('node:http');
const { isMainThread, parentPort, workerData } = process.getBuiltinModule('node:worker_threads');

/** Resolves once the answer has been read to its end. */
export const probeOnce = (url) =>
  new Promise((resolve, reject) => {
    const req = request(url, { headers: { connection: 'close' } }, (response) => {
      response.resume();
      response.once('end', resolve);
    });
    req.once('error', reject);
    req.end();
  });

if (!isMainThread && parentPort !== null) {
  for (let i = 0; i < workerData.uses; i++) await probeOnce(workerData.url);
  parentPort.postMessage('used');
  setInterval(() => undefined, 60_000);
}
