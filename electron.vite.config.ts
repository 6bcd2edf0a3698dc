import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Three builds: the main process (which also yields the `skein` CLI, the job worker and the WAL checkpointer, since
// headless mode runs the very same engine under plain Node), the sandboxed preload, and the renderer.
export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
          'job-worker': resolve(__dirname, 'src/main/engine/jobs/worker-entry.ts'),
          'wal-checkpointer': resolve(__dirname, 'src/main/engine/store/wal-checkpointer-entry.ts'),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    // The app's icon lives once, in resources/ (electron-builder's folder too): copied beside the
    // page, it is the favicon in a browser and the window's icon in the desktop app.
    publicDir: resolve(__dirname, 'resources'),
    plugins: [react()],
    build: {
      // electron-vite leaves the renderer unminified; served over HTTP in headless mode it is
      // worth the ~60% smaller bundle.
      minify: 'esbuild',
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
