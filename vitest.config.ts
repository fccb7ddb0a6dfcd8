import { configDefaults, defineConfig } from 'vitest/config';

// Tests that need `npm run build` (the built preload, the packaged app) or a browser (Chromium
// end-to-end). Everything else is the "unit" project: `npm run test:unit`, the edit-test loop.
const needsBuild = ['test/e2e/**/*.test.ts', 'test/electron/packaging.test.ts', 'test/electron/preload.test.ts'];

export default defineConfig({
  test: {
    // Network tests start real loopback servers; a generous per-test budget avoids flakes on a
    // loaded 2-core machine, while assertions never depend on wall time.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent/electron-dist-guard' },
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, ...needsBuild],
        },
      },
      { extends: true, test: { name: 'built', include: needsBuild } },
    ],
  },
});
