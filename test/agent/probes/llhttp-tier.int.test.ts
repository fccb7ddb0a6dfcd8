// Under the command's own V8 flags llhttp's parse function stays on V8's baseline WebAssembly
// compiler (--liftoff-only, src-main/cli/main.ts): optimizing it takes a helper thread 7.5 MB of
// working memory, and glibc keeps its heap that much larger for the rest of the process once the
// memory is freed. Real child processes parse answers hot with V8's tier-up run synchronously, so
// what compiler holds the function is settled when they look. The flag is read as V8 starts: set
// at run time it changes nothing, which is why it is on the first line and in the desktop app's
// launch flags (electron-builder.yml), not among the runtime flags.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseShebang } from '../../../bench/agent/stack.ts';
import { commandFirstLine } from '../../support/cli.ts';

const src = (file: string): string =>
  JSON.stringify(pathToFileURL(resolve(import.meta.dirname, '../../../src-main/agent', file)).href);

/** The node flags of the command's first line, read as the benches read them. */
const commandFlags = parseShebang(commandFirstLine()).nodeArgs;

/** Which compiler holds llhttp's parse function after hot parsing, under these flags. */
function tierAfterHotParsing(flags: readonly string[], setAtRunTime = ''): string {
  const script = `
    const v8 = await import('node:v8');
    if (${JSON.stringify(setAtRunTime)}) v8.setFlagsFromString(${JSON.stringify(setAtRunTime)});
    const { ResponseParser } = await import(${src('probes/llhttp.ts')});
    const { undiciFile } = await import(${src('base/undici-file.ts')});
    const events = new Proxy({}, { get: () => () => 0 });
    const answer = Buffer.from('HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nok');
    for (let i = 0; i < 20_000; i++) {
      const parser = new ResponseParser(events);
      parser.execute(answer);
      parser.finish();
      parser.free();
    }
    // The same bytes compile to the same code V8 keeps for the process: this instance shows it.
    const module = new WebAssembly.Module(undiciFile('lib/llhttp/llhttp_simd-wasm.js'));
    const parse = new WebAssembly.Instance(module, { env: new Proxy({}, { get: () => () => 0 }) }).exports.llhttp_execute;
    console.log(%IsTurboFanFunction(parse) ? 'optimized' : %IsLiftoffFunction(parse) ? 'baseline' : 'other');
  `;
  const child = spawnSync(
    process.execPath,
    [...flags, '--allow-natives-syntax', '--wasm-sync-tier-up', '--input-type=module', '--eval', script],
    { encoding: 'utf8', timeout: 60_000 },
  );
  expect(child.stderr).toBe('');
  return child.stdout.trim();
}

describe("llhttp under the command's V8 flags", () => {
  it('stays on the baseline compiler, where without the flag V8 optimizes it', () => {
    const withoutFlag = commandFlags.filter((flag) => flag !== '--liftoff-only');
    expect(withoutFlag).not.toEqual(commandFlags);
    expect(tierAfterHotParsing(withoutFlag)).toBe('optimized');
    expect(tierAfterHotParsing(commandFlags)).toBe('baseline');
  });

  it('is optimized when the flag is only set at run time', () => {
    const withoutFlag = commandFlags.filter((flag) => flag !== '--liftoff-only');
    expect(tierAfterHotParsing(withoutFlag, '--liftoff-only')).toBe('optimized');
  });
});
