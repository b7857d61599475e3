import { copyFileSync, mkdirSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { defineConfig, type Plugin } from 'vite'

/**
 * sql.js's Node loader and its .wasm, copied beside the bundle (`dist-cli/sql.js/`): the loader is CommonJS that
 * needs `__dirname`, so it cannot be bundled, and the installed package has no dependencies to require it from.
 */
function copySqlJs(): Plugin {
  return {
    name: 'chunkscope-copy-sql-js',
    apply: 'build',
    closeBundle() {
      mkdirSync('dist-cli/sql.js', { recursive: true })
      // .cjs: the package is `"type": "module"`, so a .js file would be read as ESM.
      copyFileSync('node_modules/sql.js/dist/sql-wasm.js', 'dist-cli/sql.js/sql-wasm.cjs')
      copyFileSync('node_modules/sql.js/dist/sql-wasm.wasm', 'dist-cli/sql.js/sql-wasm.wasm')
      copyFileSync('node_modules/sql.js/LICENSE', 'dist-cli/sql.js/LICENSE')
    },
  }
}

// The `chunkscope` CLI: one ESM file for Node 20 that bundles our src/ and leaves Node builtins external.
export default defineConfig({
  publicDir: false,
  plugins: [copySqlJs()],
  build: {
    ssr: 'src/cli/main.ts',
    target: 'node20',
    outDir: 'dist-cli',
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      external: [...builtinModules, ...builtinModules.map((name) => `node:${name}`)],
      // The commands' lazily imported chunks sit beside the bundle (not in assets/): their `import.meta.url`
      // finds `../dist/` and `./sql.js/` as the bundle's does.
      output: { format: 'es', entryFileNames: 'chunkscope.mjs', chunkFileNames: '[name]-[hash].mjs' },
    },
  },
  ssr: {
    target: 'node',
    // Bundle everything (our code and any npm dependency) so the CLI runs without node_modules resolution.
    noExternal: true,
  },
})
