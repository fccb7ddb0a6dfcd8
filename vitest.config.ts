import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Three projects, one per kind of test (see README "Test it"):
// - unit: `*.test.ts(x)`, pure (no socket, no child process, no thread, no real waiting; temp
//   files are fine). `npm run test:unit`, the edit-test loop. A setup module makes the calls that
//   leave the process throw, so a misplaced test fails at once with the fix in its message.
// - integration: `*.int.test.ts(x)`, real loopback servers, the spawned CLI, real waiting.
// - built: what needs `npm run build` (the built preload, the packaged app) or a browser (Chromium
//   end-to-end).
const needsBuild = ['test/e2e/**/*.test.ts', 'test/electron/packaging.test.ts', 'test/electron/preload.test.ts'];
const integration = ['test/**/*.int.test.ts', 'test/**/*.int.test.tsx'];

export default defineConfig({
  test: {
    // Network tests start real loopback servers; a generous per-test budget avoids flakes on a
    // loaded 2-core machine, while assertions never depend on wall time.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent/electron-dist-guard' },
    // One temporary folder for the run, removed at its end (test/support/run-temp-folder.ts).
    globalSetup: ['test/support/run-temp-folder.ts'],
    pool: 'forks',
    // Vitest's default is one worker per core less one: a single worker on a 2-core machine, while
    // the integration files spend most of their time waiting on loopback servers and spawned CLIs.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, ...needsBuild, ...integration],
          setupFiles: ['test/support/unit-guard.ts'],
          // Pure files leave no process state behind, so one worker runs many of them without a
          // fresh process each (a third of the time of an isolated run).
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'integration', include: integration, exclude: [...configDefaults.exclude, ...needsBuild] },
      },
      {
        extends: true,
        // After the others, one file at a time as before: each end-to-end file drives Chromium and
        // the built app, which two cores do not run twice at once without starving both.
        test: { name: 'built', include: needsBuild, sequence: { groupOrder: 1 }, maxWorkers: 1 },
      },
    ],
  },
});
