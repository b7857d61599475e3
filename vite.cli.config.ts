import { builtinModules } from 'node:module'
import { defineConfig } from 'vite'

// The `chunkscope` CLI: one ESM file for Node 20 that bundles our src/ and leaves Node builtins external.
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'src/cli/main.ts',
    target: 'node20',
    outDir: 'dist-cli',
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      external: [...builtinModules, ...builtinModules.map((name) => `node:${name}`)],
      output: { format: 'es', entryFileNames: 'chunkscope.mjs' },
    },
  },
  ssr: {
    target: 'node',
    // Bundle everything (our code and any npm dependency) so the CLI runs without node_modules resolution.
    noExternal: true,
  },
})
