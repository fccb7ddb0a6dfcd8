// What a run's sample holds: its own text, not the body it was cut from. The sample outlives the
// run (each check's last run keeps it, read/last-runs.ts), and a sample cut from a decoded chunk
// of the body by slicing kept that whole chunk alive in V8 (up to 64 KB a check, against the 4 KB
// sample; probes/detail.ts cutOwn). A real process against a real loopback page of 256 KB: the
// heap that 100 kept samples hold, after full GCs.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const probesUrl = pathToFileURL(resolve(import.meta.dirname, '../../../src-main/agent/probes/index.ts')).href;

const runs = 100;
const sampleChars = 4096;

const script = `
  import { createServer } from 'node:http';
  const { runProbe } = await import(${JSON.stringify(probesUrl)});
  const page = 'y'.repeat(256 * 1024);
  const server = createServer((request, response) => response.end(page));
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const url = 'http://127.0.0.1:' + server.address().port + '/';
  const sample = async () => (await runProbe({ url, match_string: '' }, { sampleChars: ${sampleChars} })).responseSample;
  for (let i = 0; i < 20; i++) await sample();
  const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
  const before = heap();
  const kept = [];
  for (let i = 0; i < ${runs}; i++) kept.push(await sample());
  const after = heap();
  server.close();
  console.log(JSON.stringify({ bytesPerSample: (after - before) / ${runs}, length: kept[0].length, kept: kept.length }));
`;

describe("a run's sample", () => {
  it('holds its own text only, not the chunk of the body it was read from', () => {
    const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '--eval', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    const measured = JSON.parse(child.stdout) as { bytesPerSample: number; length: number; kept: number };
    expect(measured.kept).toBe(runs);
    expect(measured.length).toBe(sampleChars);
    // One byte a character (the page is ASCII): ~5.6 KB, where a sample sliced from its chunk
    // held ~66 KB, and one cut from the scanner's longer text (two units a code point) ~9.6 KB.
    expect(measured.bytesPerSample).toBeLessThan(8 * 1024);
  });
});
