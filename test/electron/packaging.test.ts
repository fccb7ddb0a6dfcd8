// Packaging smoke test, offline: electron-builder --linux --dir against a stub Electron (the real
// binary cannot be downloaded here), then a look inside the unpacked app. It needs the build
// (`npm run build`, which `npm test` runs first). Any download attempt would go to a dead proxy
// and fail the build, so passing also proves that packaging needs no network.
import { spawn } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { panelShade, trayIconFile, trayStates } from '../../src-main/electron/tray-state.ts';
import { closedPort } from '../targets/index.ts';
import { createPackage } from '@electron/asar';
import { cjsRequires, esmImports, openPackage, type PackageGraph } from './package-graph.ts';
import { tempDir } from './support.ts';

const root = resolve(import.meta.dirname, '../..');
const built = ['dist/main/electron/main.js', 'dist/main/preload.cjs', 'dist/renderer/index.html'];

let work: { path: string; remove(): Promise<void> };
let unpacked: string;
let graph: PackageGraph;
let output = '';
let seconds = 0;

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, output: text }));
  });
}

beforeAll(async () => {
  for (const file of built) {
    await stat(join(root, file)).catch(() => {
      throw new Error(`${file} is missing: run \`npm run build\` before this test (npm test does).`);
    });
  }
  work = await tempDir('package-');
  // The stub Electron: electron-builder copies the folder and renames `electron` to the app's
  // executable; nothing else in it is read for a --dir build.
  const stub = join(work.path, 'electron-stub');
  await mkdir(stub);
  await writeFile(join(stub, 'electron'), '#!/bin/sh\necho "stub Electron: packaging smoke test only" >&2\nexit 1\n');
  await chmod(join(stub, 'electron'), 0o755);
  const { version } = JSON.parse(await readFile(join(root, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  };
  const deadProxy = `http://127.0.0.1:${await closedPort()}`;
  const started = Date.now();
  const result = await run(
    process.execPath,
    [
      join(root, 'node_modules/electron-builder/cli.js'),
      '--linux',
      '--dir',
      '--publish',
      'never',
      `-c.electronDist=${stub}`,
      `-c.electronVersion=${version}`,
      `-c.directories.output=${join(work.path, 'release')}`,
    ],
    {
      // electron-builder stays silent under VITEST; its log is part of what is checked.
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
      HTTP_PROXY: deadProxy,
      HTTPS_PROXY: deadProxy,
      http_proxy: deadProxy,
      https_proxy: deadProxy,
      ELECTRON_BUILDER_CACHE: join(work.path, 'cache'),
      ELECTRON_GET_USE_PROXY: '1',
    },
  );
  seconds = (Date.now() - started) / 1000;
  output = result.output;
  if (result.code !== 0) throw new Error(`electron-builder failed (exit ${result.code}):\n${output}`);
  unpacked = join(work.path, 'release', 'linux-unpacked');
  graph = openPackage(join(unpacked, 'resources', 'app.asar'));
}, 120_000);

afterAll(async () => {
  await work.remove();
});

describe('electron-builder --linux --dir (stub Electron, offline)', () => {
  it('packages without downloading, skipping fuses for the stub', async () => {
    expect(output).toContain('using custom unpacked Electron distribution');
    expect(output).toContain('skipping Electron fuses');
    expect(output).not.toMatch(/downloading/i);
    expect((await stat(join(unpacked, 'uptime-agent'))).isFile()).toBe(true);
    process.stdout.write(
      `packaging smoke test: electron-builder took ${seconds.toFixed(1)} s, app.asar holds ${graph.files.size} entries\n`,
    );
  });

  it('holds the main, preload and renderer bundles, and no sources or dev tooling', () => {
    for (const file of ['/package.json', ...built.map((f) => `/${f}`)]) expect(graph.files).toContain(file);
    const all = [...graph.files];
    expect(
      all.filter(
        (f) => f.startsWith('/src-main') || f.startsWith('/test') || f.startsWith('/scripts') || f.endsWith('.map'),
      ),
    ).toEqual([]);
    for (const dev of ['electron', 'electron-builder', 'vitest', 'typescript', 'vite'])
      expect(graph.files).not.toContain(`/node_modules/${dev}/package.json`);
  });

  it('resolves every import of the main process inside the package', () => {
    expect(graph.unresolved('/dist/main/electron/main.js')).toEqual([]);
    expect(graph.reached).toContain('/dist/main/agent/agent.js');
    expect(graph.reached).toContain('/dist/main/electron/tray.js');
  });

  it('has a self-contained preload that requires only electron', () => {
    const preload = graph.read('/dist/main/preload.cjs');
    expect(esmImports(preload)).toEqual([]);
    expect(new Set(cjsRequires(preload))).toEqual(new Set(['electron']));
    expect(preload).toContain('exposeInMainWorld');
    expect(preload).toContain('agent:snapshot');
  });

  it('ships every tray icon (both densities) and the app icon as real files', async () => {
    const tray = new Set(await readdir(join(unpacked, 'resources', 'tray')));
    for (const state of trayStates) {
      for (const platform of ['darwin', 'linux', 'win32'] as const) {
        for (const dark of [false, true]) {
          const file = trayIconFile(state, platform, panelShade(platform, dark));
          expect(tray).toContain(file);
          expect(tray).toContain(file.replace('.png', '@2x.png'));
        }
      }
    }
    expect((await stat(join(unpacked, 'resources', 'icon.png'))).size).toBeGreaterThan(1000);
  });
});

describe('the import graph check itself', () => {
  it('reports missing files, missing packages and missing dependencies of packages', async () => {
    const app = join(work.path, 'graph-app');
    const put = async (file: string, text: string) => {
      await mkdir(join(app, file, '..'), { recursive: true });
      await writeFile(join(app, file), text);
    };
    await put('package.json', '{"name":"x"}');
    await put(
      'main.js',
      [
        "import { a } from './lib/a.js';",
        'import {',
        '  b,',
        "} from './lib/missing.js';",
        "import 'node:fs';",
        "import path from 'path';",
        "import { app } from 'electron';",
        "import kept from 'present';",
        "import 'absent/sub.js';",
        "// import 'only-in-a-comment';",
        "export * from './lib/a.js';",
      ].join('\n'),
    );
    await put('lib/a.js', "export const a = await import('present/deep.js');");
    await put(
      'node_modules/present/package.json',
      '{"name":"present","dependencies":{"helper":"1","gone":"1"},"optionalDependencies":{"gone":"1"}}',
    );
    await put(
      'node_modules/present/node_modules/helper/package.json',
      '{"name":"helper","dependencies":{"shared":"1"}}',
    );
    await put('node_modules/shared/package.json', '{"name":"shared","dependencies":{"lost":"1"}}');
    const archive = join(work.path, 'graph.asar');
    await createPackage(app, archive);
    const problems = openPackage(archive).unresolved('/main.js');
    expect(problems.sort()).toEqual([
      './lib/missing.js imported by /main.js is not in the package',
      "absent/sub.js imported by /main.js is not in the package's node_modules",
      'lost (a dependency of /node_modules/shared, reached from /lib/a.js) is not in the package',
    ]);
  });
});
