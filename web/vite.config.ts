import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The web app builds into dist/public, which the server (src/web/web-routes.ts) serves.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: '../dist/public',
    emptyOutDir: true,
    manifest: true,
    // No inline <script> or data: module: the pages' CSP allows scripts from this origin only.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    // `npm run dev:web`: the API runs on 3000 (npm run dev), pages on Vite's dev server.
    proxy: { '/api': 'http://127.0.0.1:3000', '/scripts': 'http://127.0.0.1:3000' },
  },
});
