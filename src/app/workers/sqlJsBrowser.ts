import type { SqlJsStatic } from 'sql.js'
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url'

let started: Promise<SqlJsStatic> | null = null

/**
 * sql.js (SQLite in WebAssembly) for the loading worker, fetched and started only when a SQLite file is opened:
 * its JS is a separate chunk and its .wasm a Vite asset served beside the app (no network beyond the app's origin).
 */
export function loadSqlJsBrowser(): Promise<SqlJsStatic> {
  started ??= import('sql.js').then(({ default: initSqlJs }) => initSqlJs({ locateFile: () => wasmUrl }))
  return started
}
