// Node's built-in modules are loaded without their ESM facade (eslint.config.js): an `import` of
// node:http reads every export, WebSocket's lazy one included, which loads Node's own bundled
// undici (with http2, web streams, perf_hooks…), and one of node:crypto loads Web Crypto. The
// agent uses neither, and the probe thread, an isolate of its own, would hold them a second time.
// Both are checked where it matters: in a real process and a real thread, from Node's own list of
// what it loaded. Each fails with an `import` of node:http or node:crypto anywhere in their code.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const source = (path: string): string => pathToFileURL(resolve(import.meta.dirname, '../../src-main', path)).href;

/** What neither the command nor its probe thread needs, and an import of node:http or node:crypto loads. */
const unused = ['NativeModule internal/deps/undici/undici', 'NativeModule internal/crypto/webcrypto'];

describe('built-in modules', () => {
  it('the probe thread loads the HTTP client, and neither Node’s bundled undici nor Web Crypto, nor what they bring', async () => {
    // A thread that loads the probe thread's own script, then answers with what it loaded.
    const entry = `data:text/javascript,${encodeURIComponent(`
      import ${JSON.stringify(source('agent/probes/probe-thread-entry.ts'))};
      import { parentPort } from 'node:worker_threads';
      parentPort.postMessage(process.moduleLoadList);
    `)}`;
    const worker = new Worker(new URL(entry));
    try {
      const loaded = await new Promise<string[]>((done, fail) => {
        worker.once('message', done);
        worker.once('error', fail);
      });
      expect(loaded).toContain('NativeModule _http_client');
      expect(loaded).toContain('NativeModule tls');
      for (const name of [...unused, 'NativeModule http2', 'NativeModule internal/readline/interface'])
        expect(loaded).not.toContain(name);
    } finally {
      await worker.terminate();
    }
  });

  it('the command, all its modules loaded, holds neither Node’s bundled undici nor Web Crypto', () => {
    // The command's entry only runs when it is the process's script, so it can be imported whole.
    const script = `
      await import(${JSON.stringify(source('cli/main.ts'))});
      process.stdout.write(JSON.stringify(process.moduleLoadList));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '--eval', script], { encoding: 'utf8' });
    expect(child.stderr).not.toMatch(/Error/);
    const loaded = JSON.parse(child.stdout) as string[];
    expect(loaded).toContain('NativeModule _http_client');
    for (const name of unused) expect(loaded).not.toContain(name);
  });

  it('the command loads the parts of undici its API client uses, not undici’s entry point and all it brings', () => {
    // undici's index loads fetch, WebSocket, EventSource, the cache stores and the mocks, which the
    // agent never uses (wire/undici-parts.ts says what they cost).
    const script = `
      await import(${JSON.stringify(source('cli/main.ts'))});
      const { Module } = process.getBuiltinModule('node:module');
      process.stdout.write(JSON.stringify(Object.keys(Module._cache)));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '--eval', script], { encoding: 'utf8' });
    expect(child.stderr).not.toMatch(/Error/);
    const files = (JSON.parse(child.stdout) as string[]).map((file) => file.split('/node_modules/undici/')[1]);
    expect(files).toContain('lib/dispatcher/proxy-agent.js');
    expect(files).toContain('lib/api/api-connect.js');
    for (const file of [
      'index.js',
      'lib/web/fetch/index.js',
      'lib/web/websocket/websocket.js',
      'lib/mock/mock-agent.js',
    ])
      expect(files).not.toContain(file);
  });
});
