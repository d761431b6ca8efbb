import { defineConfig } from "vite";
import { fileURLToPath } from 'node:url';

// The dashboard SPA (docs/dashboard.md). Built into dist/dashboard-web and served by src/dashboard at /dashboard.
// JSX is compiled by Vite's own Oxc transform (automatic runtime): @vitejs/plugin-react would only add Fast
// Refresh for the dev server, and its optional Babel peers do not resolve beside jest's Babel 7 here.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../../../dist/dashboard-web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
