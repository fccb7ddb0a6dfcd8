import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Network tests start real loopback servers; a generous per-test budget avoids flakes on a
    // loaded 2-core machine, while assertions never depend on wall time.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent/electron-dist-guard' },
    pool: 'forks',
  },
});
