// `npm run demo`: a reference server with a demo organisation, loopback targets in every state,
// and the agent's window, so that anyone can try the whole product on one machine in a minute.
// Runs until Ctrl-C, then stops everything and removes its temporary folder.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileSettingsStore } from '../src-main/cli/dashboard/settings-file.ts';
import { startReferenceServer } from '../test/reference-server/index.ts';
import { seed } from '../test/reference-server/seed.ts';
import { electronBinary } from './demo/electron.ts';
import { startDemoTargets } from './demo/targets.ts';

const root = resolve(import.meta.dirname, '..');
const say = (line = ''): boolean => process.stdout.write(`${line}\n`);

function buildRendererIfMissing(): void {
  if (existsSync(join(root, 'dist', 'renderer', 'index.html'))) return;
  say('Building the window (first run only)…');
  const built = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('building the renderer failed; run "npm run build:renderer" to see why');
}

/** Starts `uptime-agent run --dashboard` and resolves with the URL it prints. */
function startHeadlessAgent(dataDir: string, privateFile: string): Promise<{ child: ChildProcess; url: string }> {
  const args = [
    join(root, 'src-main', 'cli', 'main.ts'),
    'run',
    '--dashboard',
    '--data-dir',
    dataDir,
    '--private-checks',
    privateFile,
    '--sync-interval',
    '5',
    '--upload-interval',
    '3',
    '--status-interval',
    '15',
    '--ping-interval',
    '10',
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, UPTIME_AGENT_LOG_LEVEL: 'warn' },
  });
  child.stderr.pipe(process.stderr);
  return new Promise((resolveStart, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /^dashboard: (\S+)$/m.exec(out)?.[1];
      if (url !== undefined) resolveStart({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`the agent exited with code ${code} before its dashboard started`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

async function main(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'uptime-agent-demo-'));
  const dataDir = join(folder, 'agent');
  const privateFile = join(folder, 'private-checks.json');
  const world = await startDemoTargets();
  const server = await startReferenceServer();
  const seeded = seed(server, { organization: 'Demo organisation', checks: world.checks, tokenLabel: 'demo' });
  await writeFile(privateFile, `${JSON.stringify(world.privateDefinitions, null, 2)}\n`, { mode: 0o600 });
  // Pre-fill the enrollment form: only the token is left to paste.
  fileSettingsStore(dataDir).update({
    serverUrl: server.url,
    monitorName: hostname(),
    region: 'local',
    country: 'XX',
    city: 'Demo city',
    privateChecksFile: privateFile,
  });

  let agent: ChildProcess;
  const electron = electronBinary(root);
  if (electron !== undefined) {
    // Its own profile folder, so the demo never touches the desktop app's real monitor.
    agent = spawn(electron, [root, `--user-data-dir=${join(folder, 'desktop')}`], { stdio: 'inherit' });
    say('\nThe Uptime Agent desktop app is opening. In its enrollment form:');
    say(`\n  1. Server URL:          ${server.url}`);
  } else {
    buildRendererIfMissing();
    const started = await startHeadlessAgent(dataDir, privateFile);
    agent = started.child;
    say('\nUptime Agent demo is running (no desktop app here, so the window opens in your browser).');
    say(`\n  1. Open the dashboard:  ${started.url}`);
    say(`     Server URL:          ${server.url}   (already filled in)`);
  }
  say(`  2. Paste this token:    ${seeded.token}`);
  say('  3. Press Enroll.');
  say(
    `\nThe demo server has ${world.checks.length} checks: healthy, slow, flapping, failing, TCP, TLS, HTTPS and a private one`,
  );
  say(`whose definition lives only in ${privateFile}`);
  say(
    electron === undefined ? '(already in use by the agent).' : '(choose it in the window’s Private definitions view).',
  );
  say('Press Ctrl-C to stop the demo; everything it started is stopped and its temporary folder removed.\n');

  const stop = async (): Promise<void> => {
    say('\nStopping the demo…');
    await stopChild(agent);
    await server.close();
    await world.close();
    await rm(folder, { recursive: true, force: true });
    say('Done.');
  };
  await new Promise<void>((resolveSignal) => {
    process.once('SIGINT', () => resolveSignal());
    process.once('SIGTERM', () => resolveSignal());
    agent.once('exit', () => resolveSignal());
  });
  await stop();
}

main().catch((error: unknown) => {
  process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
