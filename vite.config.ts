/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // Relative asset URLs: the same build works from any static host and path (GitHub Pages' /repo/, a file
  // server's subfolder) and from `chunkscope open`'s loopback server.
  base: './',
  // Module workers, so worker entries can `import` core/formats like any other module.
  worker: { format: 'es' },
  test: {
    // e2e/ belongs to Playwright: Vitest must never pick up its specs.
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // A guard against a hung test, not a speed check: the corpus and property suites take a few seconds each on
    // an idle 2-core machine and many times that when the machine is shared (bench/ measures speed).
    testTimeout: 60_000,
  },
})
