import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The playground page: built into the emulator package (`dist/playground/`), which the emulator serves
// at `/`. `base: './'` keeps asset URLs relative, so the page loads wherever it is mounted.
const here = fileURLToPath(new URL('.', import.meta.url));
// `vite --config packages/emulator/playground/vite.config.ts` serves the page with hot reload and
// proxies the control API to a running emulator (default port; override with BOARDBOT_EMULATOR_URL).
const emulator = process.env.BOARDBOT_EMULATOR_URL ?? 'http://127.0.0.1:8787';

export default defineConfig({
  root: here,
  base: './',
  publicDir: false,
  // Keep the dev server's dependency cache with the workspace's, not in a new packages/emulator/node_modules.
  cacheDir: fileURLToPath(new URL('../../../node_modules/.vite/playground/', import.meta.url)),
  // The page bundles the control API client, the HTTP helpers it shares with the other clients and the
  // error root its errors extend, from their sources (no build of the emulator or protocol needed first).
  resolve: {
    alias: {
      '@boardbot/emulator/control': fileURLToPath(new URL('../src/control/index.ts', import.meta.url)),
      '@boardbot/protocol/http': fileURLToPath(new URL('../../protocol/src/http/index.ts', import.meta.url)),
      '@boardbot/protocol/error-root': fileURLToPath(
        new URL('../../protocol/src/error-root/index.ts', import.meta.url),
      ),
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/playground/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // One small page: no preload polyfill (every supported browser has modulepreload).
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/_emulator': { target: emulator, changeOrigin: false } },
  },
});
