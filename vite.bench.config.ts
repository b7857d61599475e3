import { builtinModules } from 'node:module'
import { readdirSync } from 'node:fs'
import { defineConfig } from 'vite'

// Benchmarks (`src/bench/*.bench.ts`) bundled for plain Node, like the CLI; `npm run bench` builds and runs them.
const entries = Object.fromEntries(
  readdirSync('src/bench')
    .filter((name) => name.endsWith('.bench.ts'))
    .map((name) => [name.replace(/\.ts$/, ''), `src/bench/${name}`]),
)

export default defineConfig({
  publicDir: false,
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist-bench',
    emptyOutDir: true,
    minify: false,
    rolldownOptions: {
      input: entries,
      external: [
        ...builtinModules,
        ...builtinModules.map((name) => `node:${name}`),
        '@playwright/test',
        'vite',
      ],
      output: { format: 'es', entryFileNames: '[name].mjs' },
    },
  },
  ssr: { target: 'node', noExternal: true },
})
