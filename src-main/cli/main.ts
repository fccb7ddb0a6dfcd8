#!/usr/bin/env -S MALLOC_ARENA_MAX=1 node --max-semi-space-size=2 --max-old-space-size=256 --no-concurrent-recompilation        --no-memory-reducer --liftoff-only --v8-pool-size=2
// Entry point of the headless `uptime-agent` command.
// The V8 flags above (also in electron-builder.yml, kept equal by test/electron/v8-flags.test.ts;
// the bench reads them from this line): with a machine's
// default limits V8 lets a probe-heavy heap grow to ~280 MB RSS at 5,000 checks although under
// 20 MB of it is live; these bound it to ~135 MB at the same CPU cost (npm run bench:probes).
// A 1 MB semi-space saved ~5-10 MB more at 1,000 checks but cost ~0.04 ms CPU per probe
// (more scavenges; issue 14). 2 MB, since V8 no longer pretenures (runtime-v8-flags.ts, issue
// 26): against 4 MB, 2.7 MB less at 20 checks and 2.1 MB less at 1,000 at the same CPU per probe
// (0.409 against 0.410 ms, 3 interleaved rounds; 1 MB cost 9 % more), and 3-8 MB less at 6,000
// and at 80 % of saturation in one full bench each.
// MALLOC_ARENA_MAX=1: glibc gives each of V8's worker threads its own 64 MB malloc arena, and
// the compiler's and GC's short-lived memory left ~25 MB resident in five of them at 1,000
// checks. Two arenas held ~4-11 MB of it; one holds ~5-8 MB less again at 1,000 checks, at the
// same CPU per probe (3 runs of each, interleaved; issue 14). Other libcs ignore it.
// --no-concurrent-recompilation (issue 26): the optimizing compilers run on the thread that asked,
// between two tasks, instead of on a worker that then wakes the main thread to install the code.
// At rest (20 checks at 60 s) that took wake-ups from 5.6-6.4 to 3.3 a second; at 1,000 checks it
// left ~16 MB less resident (the added memory 27 -> 17 MB) at the same CPU per probe (0.394 ms
// both, 3 interleaved rounds). A compile now holds up the loop once, while the code warms up.
// --no-memory-reducer (issue 26): at rest (20 checks at 60 s) V8's memory reducer ran a full GC
// about every 100 s to hand back ~1 MB; without it the resting CPU went from 1.60-1.69 to
// 1.25-1.31 ms a second and wake-ups from ~2.9 to ~2.3 a second, for ~3 MB more resident
// (two rounds of two agents side by side, bench/agent's resting row). The GCs V8 runs when a
// generation fills are unchanged.
// --liftoff-only (issue 26): llhttp, the parser the http probe and the API client read answers
// with (probes/llhttp.ts), is WebAssembly, and once its parse function runs hot V8 compiles it
// again with its optimizing compiler on a helper thread, whose working memory for llhttp's one
// large state machine grows by doubling to 7.5 MB (strace of the agent's first minute). glibc
// serves allocations that large with mmap, and on freeing one raises its mmap threshold to that
// size and its trim threshold to twice it for the rest of the process: allocations under 7.5 MB
// then come from its heap, and up to ~15 MB freed at the heap's top stays resident. Left on the
// baseline compiler a parse costs ~1 us more (3.3-3.8 -> 4.3-4.7 us, 300,000 parses), and the
// agent holds 8.3 MB less at 20 checks (95.3-95.5 -> 87.0-87.1 MB) and 6.1 MB less at 1,000
// (106.1-106.3 -> 100.1) at the same CPU per probe (0.187-0.215 against 0.199-0.210 ms); at
// 6,000 checks, where glibc's heap is busy anyway, the same (141.8 against 143.7 MB, means of
// three rounds). npm run bench:flags, docs/performance.md "Memory added by checks". V8 reads it
// only as the process starts (set later, llhttp was still optimized: test/agent/probes/
// llhttp-tier.int.test.ts). A kernel before 5.1 leaves it out with the memory reducer's.
// --v8-pool-size=2 (issue 26): Node starts four V8 helper threads, which share the GCs of both of
// the agent's threads, whatever the machine. On two cores near the agent's capacity they queued
// for a core beside the probe thread, the main thread and the targets (ready but not running
// 28-36 % of a core in all, 15-24 % with two), and a scavenge that gives them a share ends only
// once each has had its turn. At 80 % of saturation (4,700 checks, ten rounds alternating, 65 s
// warm-up, 30 s window) the schedule lag p99 read lower in eight rounds, a median of 64 against
// 445 ms; at 6,000 checks 5,308 against 5,006 probes a second (four rounds), at 0.187 ms a probe
// and ~143 MB both; at 1,000 and 20 checks the same CPU and RSS (docs/performance.md "The probe
// thread near saturation"). It is Node's option, not V8's: the desktop app runs on Electron's
// own Node platform, which starts three helpers and takes no such switch.
// Linux before 5.1 reads only the first 127 bytes of this line and silently drops the rest: the
// flags that bound memory fill those exactly (the spaces pad them), so such a kernel runs the
// command with whole flags only, without the memory reducer's and those after it, never with a
// flag cut in two (test/electron/v8-flags.test.ts). env -S reads the padding as one space.
// V8 flags read while the process runs are not here but in agent/base/runtime-v8-flags.ts (the
// agent sets them for the command and the desktop app alike).
// Also tried for issue 26 and left out (docs/performance.md): an 8 MB semi-space (~10 MB more at
// 20 checks; the probe thread has one of its own, agent/base/runtime-v8-flags.ts),
// --optimize-for-size (1.6x the CPU per probe); fixed malloc trim/mmap thresholds (MALLOC_TOP_PAD_
// or MALLOC_MMAP_THRESHOLD_: ~7 MB less at 20 checks, as --liftoff-only, by keeping glibc from
// raising its thresholds whatever raises them, but on this line they would push the heap bounds
// past a kernel's 127 bytes, and the desktop app cannot be given them).
import { agentVersion } from '../agent/base/version.ts';
import { dashboardUrlCommand } from './dashboard-url-command.ts';
import { enrollCommand } from './enroll-command.ts';
import { exitCodes } from './exit-codes.ts';
import { processIo, type CliIo } from './io.ts';
import { runCommand } from './run-command.ts';
import { statusCommand } from './status-command.ts';
import { testCheckCommand } from './test-check-command.ts';
import { commandUsage, usageText } from './usage.ts';

/** stopSignal is called only by `run`, so other commands keep the default Ctrl-C behaviour. */
export async function main(argv: string[], io: CliIo, stopSignal: () => Promise<string>): Promise<number> {
  const [command, ...rest] = argv;
  // Every command answers --help with its own usage, and does nothing else.
  const own = command !== undefined && Object.hasOwn(commandUsage, command) ? commandUsage[command] : undefined;
  if (own !== undefined && rest.some((a) => a === '--help' || a === '-h')) {
    io.stdout(own.trimEnd());
    return exitCodes.ok;
  }
  switch (command) {
    case 'enroll':
      return enrollCommand(rest, io);
    case 'run':
      return runCommand(rest, io, stopSignal());
    case 'status':
      return statusCommand(rest, io);
    case 'test-check':
      return testCheckCommand(rest, io);
    case 'dashboard-url':
      return dashboardUrlCommand(rest, io);
    case '--version':
      io.stdout(agentVersion);
      return exitCodes.ok;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.stdout(usageText);
      return command === undefined ? exitCodes.usage : exitCodes.ok;
    default:
      io.stderr(`uptime-agent: unknown command "${command}". Run "uptime-agent --help" for usage.`);
      return exitCodes.usage;
  }
}

function stopRequested(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

const isEntry =
  process.argv[1] !== undefined &&
  import.meta.filename === process.getBuiltinModule('node:fs').realpathSync(process.argv[1]);
if (isEntry) {
  const code = await main(process.argv.slice(2), processIo, stopRequested);
  process.exitCode = code;
  // Open handles (a slow socket) must not keep a finished command alive.
  setTimeout(() => process.exit(code), 500).unref();
}
