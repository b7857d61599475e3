import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { InitSqlJsStatic, SqlJsStatic } from 'sql.js'

let started: Promise<SqlJsStatic> | null = null

/**
 * sql.js (SQLite in WebAssembly) for Node, started on first use only (a SQLite file was opened). Loaded with Node's
 * own `require` rather than bundled: its Emscripten loader needs CommonJS `__dirname`, which the CLI's ESM bundle
 * lacks. The installed package carries its copy beside the bundle (`dist-cli/sql.js/`, see vite.cli.config.ts); a
 * checkout running from source uses node_modules.
 */
export function loadSqlJsNode(): Promise<SqlJsStatic> {
  started ??= (async () => {
    const require = createRequire(import.meta.url)
    const packaged = fileURLToPath(new URL('./sql.js/sql-wasm.cjs', import.meta.url))
    const [loader, wasm] = existsSync(packaged)
      ? [packaged, fileURLToPath(new URL('./sql.js/sql-wasm.wasm', import.meta.url))]
      : [require.resolve('sql.js'), require.resolve('sql.js/dist/sql-wasm.wasm')]
    const initSqlJs = require(loader) as InitSqlJsStatic
    const file = readFileSync(wasm)
    const wasmBinary = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer
    return initSqlJs({ wasmBinary })
  })()
  return started
}
