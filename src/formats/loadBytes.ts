import type { SqlJsStatic } from 'sql.js'
import type { Session } from '../core/session'
import { loadSource } from './load'
import { MAX_DECOMPRESSED_BYTES, OutputBudget } from './limits'
import { headerlessPageSize } from './sqlitePages'
import { isSqlite, readSqliteStore } from './sqliteStore'
import type { Diagnostic, LoadedSource } from './types'
import { decodeUtf8 } from './utf8'
import { isZip, readZipDirectory, readZipEntry, type ZipEntry } from './zipArchive'
import { isZstd, readZstdFrames } from './zstdFrames'

export type LoadBytesOptions = {
  /**
   * Starts sql.js (SQLite compiled to WebAssembly) for a SQLite session store. The caller passes it because only the
   * caller knows where the .wasm file is (a Vite asset URL in the worker, a path under node_modules in the CLI).
   * Without it a SQLite file is recognised but not read, with one error saying so.
   */
  readonly sqlJs?: () => Promise<SqlJsStatic>
  /** Cap on everything the file's containers decompress to; {@link MAX_DECOMPRESSED_BYTES} by default. */
  readonly maxDecompressedBytes?: number
}

/**
 * The byte-level entry point: recognises the harness's binary containers from their magic bytes (Zstandard
 * `28 B5 2F FD`, ZIP `50 4B 03 04`, `SQLite format 3\0`) and otherwise decodes UTF-8 (reporting bytes that are not)
 * and hands the text to loadSource. Lenient and total like loadSource: it never rejects for bad input.
 *
 * @example
 * const source = await loadBytes(new Uint8Array(await file.arrayBuffer()), file.name, { sqlJs })
 * source.format // 'dsh-session-zstd'
 */
export async function loadBytes(
  bytes: Uint8Array,
  name?: string,
  options: LoadBytesOptions = {},
): Promise<LoadedSource> {
  const named = name !== undefined ? { name } : {}
  const budget = new OutputBudget(options.maxDecompressedBytes ?? MAX_DECOMPRESSED_BYTES)
  try {
    if (isZstd(bytes)) return await loadZstd(bytes, named, budget)
    if (isZip(bytes)) return await loadZip(bytes, named, budget)
    if (isSqlite(bytes) || headerlessPageSize(bytes) !== null)
      return await loadSqlite(bytes, named, options, budget)
    return loadText(bytes, name)
  } catch (error) {
    // The readers are written not to throw; if one does, the user still gets a message instead of a blank page.
    const reason = error instanceof Error ? error.message : String(error)
    return {
      format: null,
      ...named,
      sessions: [],
      diagnostics: [{ severity: 'error', message: `internal error: ${reason}` }],
    }
  }
}

type Named = { name?: string }

function loadText(bytes: Uint8Array, name: string | undefined): LoadedSource {
  const { text, diagnostics } = decodeTextInput(bytes)
  return withDiagnostics(loadSource(text, name), diagnostics)
}

/** True when the bytes open one of the binary containers that {@link loadBytes} reads itself. */
export function isBinaryContainer(bytes: Uint8Array): boolean {
  return isZstd(bytes) || isZip(bytes) || isSqlite(bytes) || headerlessPageSize(bytes) !== null
}

/**
 * A text input's bytes decoded as UTF-8, with a diagnostic for the first invalid byte. A caller holding a large
 * file decodes with this, lets go of the bytes and then calls loadSource, so the bytes and the parsed events are
 * never alive at the same time; {@link withDiagnostics} adds the decoding diagnostics to the result.
 */
export function decodeTextInput(bytes: Uint8Array): { text: string; diagnostics: Diagnostic[] } {
  const { text, invalidAt } = decodeUtf8(bytes)
  return { text, diagnostics: invalidAt === -1 ? [] : [invalidUtf8(invalidAt, 'the file')] }
}

export function withDiagnostics(source: LoadedSource, diagnostics: Diagnostic[]): LoadedSource {
  return diagnostics.length === 0
    ? source
    : { ...source, diagnostics: [...diagnostics, ...source.diagnostics] }
}

async function loadZstd(bytes: Uint8Array, named: Named, budget: OutputBudget): Promise<LoadedSource> {
  const read = await readZstdFrames(bytes, { budget })
  const inner = loadSource(read.text, named.name)
  const diagnostics = [...read.diagnostics, ...inner.diagnostics]
  if (inner.sessions.length === 0 && read.text.length === 0) {
    return {
      format: 'dsh-session-zstd',
      ...named,
      sessions: [],
      diagnostics: withoutEmptyInput(diagnostics, read.frames),
    }
  }
  return { format: 'dsh-session-zstd', ...named, sessions: inner.sessions, diagnostics }
}

/** "empty input" says nothing about a container whose frames held no text: say that instead. */
function withoutEmptyInput(diagnostics: Diagnostic[], frames: number): Diagnostic[] {
  const kept = diagnostics.filter((d) => d.message !== 'empty input')
  kept.push({
    severity: 'error',
    message: `zstd: no text could be read from its ${frames} frame${frames === 1 ? '' : 's'}`,
  })
  return kept
}

/** A session log entry: the root `session.jsonl` or `subagents/<id>/session.jsonl` (any depth, any top folder). */
const SESSION_ENTRY = /(^|\/)session\.jsonl(\.zstd)?$/

/**
 * The web UI's export (`dsh-session-<id>.zip`, §8): the root `session.jsonl` first, then every
 * `subagents/<id>/session.jsonl` in archive order, each a Session; `media/…` is listed but never inflated.
 */
async function loadZip(bytes: Uint8Array, named: Named, budget: OutputBudget): Promise<LoadedSource> {
  const directory = readZipDirectory(bytes)
  const diagnostics = directory.diagnostics
  const logs = directory.entries.filter((entry) => SESSION_ENTRY.test(entry.name))
  if (logs.length === 0) {
    const listed = directory.entries.length > 0 ? ` (entries: ${sample(directory.entries)})` : ''
    const message = `zip: not a DeepSeek Harness session export: no session.jsonl in the archive${listed}`
    return {
      format: null,
      ...named,
      sessions: [],
      diagnostics: [...diagnostics, { severity: 'error', message }],
    }
  }
  const isChild = (entry: ZipEntry) => /(^|\/)subagents\//.test(entry.name)
  const root = logs.filter((entry) => !isChild(entry)).sort((a, b) => a.name.length - b.name.length)[0]
  const children = logs.filter((entry) => entry !== root)
  const sessions: Session[] = []
  if (root === undefined) {
    diagnostics.push({
      severity: 'error',
      message: `zip: no session.jsonl at the root of the archive${children.length > 0 ? `; reading its ${children.length} subagent log${children.length === 1 ? '' : 's'} only` : ''}`,
    })
  }
  for (const entry of root !== undefined ? [root, ...children] : children) {
    const data = readZipEntry(bytes, entry, diagnostics, budget)
    if (data === null) continue
    const read = isZstd(data) ? await readZstdFrames(data, { budget }) : null
    const decoded = read === null ? decodeUtf8(data) : { text: read.text, invalidAt: -1 }
    const inner = loadSource(decoded.text, entry.name)
    // The message names the entry and where in it; a bare `line`/`byte` would read as a place in the archive.
    const prefix = ({ line: _line, byte: _byte, ...d }: Diagnostic): Diagnostic => ({
      ...d,
      message: `${entry.name}: ${d.message}`,
    })
    if (read !== null) diagnostics.push(...read.diagnostics.map(prefix))
    if (decoded.invalidAt !== -1) diagnostics.push(prefix(invalidUtf8(decoded.invalidAt, 'the entry')))
    diagnostics.push(...inner.diagnostics.map(prefix))
    sessions.push(...inner.sessions)
  }
  const others = directory.entries.length - logs.length
  if (others > 0) {
    diagnostics.push({
      severity: 'info',
      message: `zip: ${others} other entr${others === 1 ? 'y' : 'ies'} (${sample(directory.entries.filter((e) => !logs.includes(e)))}) not read`,
    })
  }
  return { format: 'dsh-session-zip', ...named, sessions, diagnostics }
}

async function loadSqlite(
  bytes: Uint8Array,
  named: Named,
  options: LoadBytesOptions,
  budget: OutputBudget,
): Promise<LoadedSource> {
  if (options.sqlJs === undefined) {
    const message = 'sqlite: a SQLite database, but no SQLite engine (sql.js) was provided to read it'
    return { format: 'dsh-sqlite', ...named, sessions: [], diagnostics: [{ severity: 'error', message }] }
  }
  let sql: SqlJsStatic
  try {
    sql = await options.sqlJs()
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const message = `sqlite: the SQLite engine (sql.js) could not be started: ${reason}`
    return { format: 'dsh-sqlite', ...named, sessions: [], diagnostics: [{ severity: 'error', message }] }
  }
  const read = await readSqliteStore(bytes, sql, budget)
  const format = read.recognised ? 'dsh-sqlite' : null
  return { format, ...named, sessions: read.sessions, diagnostics: read.diagnostics }
}

function invalidUtf8(at: number, what: string): Diagnostic {
  return {
    byte: at,
    severity: 'warning',
    message: `invalid UTF-8 at byte ${at} of ${what}; bad bytes are shown as U+FFFD`,
  }
}

function sample(entries: readonly ZipEntry[], max = 3): string {
  const shown = entries
    .slice(0, max)
    .map((e) => e.name)
    .join(', ')
  return entries.length > max ? `${shown}, … ${entries.length - max} more` : shown
}
