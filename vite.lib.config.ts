import { builtinModules } from 'node:module'
import { defineConfig } from 'vite'

// The package's library entry points (`chunkscope/core`, `/formats`, `/tap`): ESM for Node ≥ 20 and browsers.
// Everything they use (our src/, fzstd, fflate, xxhash-wasm) is bundled in, so the package has no runtime
// dependencies to resolve: it installs offline from its tarball alone.
const external = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)])

export default defineConfig({
  publicDir: false,
  build: {
    target: 'es2022',
    outDir: 'dist-lib',
    emptyOutDir: false,
    minify: false,
    sourcemap: true,
    lib: {
      entry: { core: 'src/lib/core.ts', formats: 'src/lib/formats.ts', tap: 'src/tap/index.ts' },
      formats: ['es'],
    },
    rolldownOptions: {
      external: (id) => external.has(id),
      output: { entryFileNames: '[name].js', chunkFileNames: 'shared/[name]-[hash].js' },
    },
  },
})
