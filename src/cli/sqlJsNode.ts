import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { InitSqlJsStatic, SqlJsStatic } from 'sql.js'

let started: Promise<SqlJsStatic> | null = null

/**
 * sql.js (SQLite in WebAssembly) for Node, started on first use only (a SQLite file was opened). Loaded with Node's
 * own `require` from the installed package rather than bundled: its Emscripten loader needs CommonJS `__dirname`,
 * which the CLI's ESM bundle lacks. The .wasm is read from the same package.
 */
export function loadSqlJsNode(): Promise<SqlJsStatic> {
  started ??= (async () => {
    const require = createRequire(import.meta.url)
    const initSqlJs = require('sql.js') as InitSqlJsStatic
    const file = readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'))
    const wasmBinary = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer
    return initSqlJs({ wasmBinary })
  })()
  return started
}
