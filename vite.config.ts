import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is served from a custom protocol in Electron and over loopback http by the web
// dashboard, so asset URLs must be relative.
export default defineConfig({
  root: 'src-renderer',
  base: './',
  plugins: [react()],
  build: { outDir: '../dist/renderer', emptyOutDir: true, sourcemap: true },
});
