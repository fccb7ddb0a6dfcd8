import { defineConfig } from 'vite';

// The preload runs sandboxed, where only require('electron') works: it is bundled into one
// CommonJS file with the contract it imports, beside the main process build (dist/main).
export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: 'dist/main',
    emptyOutDir: false,
    target: 'esnext',
    minify: false,
    sourcemap: false,
    lib: { entry: 'src-main/preload.ts', formats: ['cjs'], fileName: () => 'preload.cjs' },
    rolldownOptions: { external: ['electron'] },
  },
});
